/**
 * "Assinar com a Jade (USB)" (issue #28) in the real renderer (Chromium, the app's CSP) against the real app
 * context and the sandbox chain, with LWK's own Jade code (lwk_wasm, loaded on the click) talking CBOR over a fake
 * `navigator.serial` to a FAKE Jade written in the test (test/e2e/support/fake-jade.ts). No Jade and no serial
 * device exist on the machines this runs on; main's side (the chooser, the serial permission only for our page and
 * only for Jade's USB ids) is tested on the built main in test/build/built-main.test.ts.
 *
 * One wave of one payment: no Jade chosen; another wallet's Jade (nothing sent to sign); a locked Jade; the
 * signature refused on the device; then the Jade signs — the PSET goes through the ordinary import (same
 * transaction, same outputs), is broadcast and recorded, and every input's signature verifies against its key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import secp256k1 from '@vulpemventures/secp256k1-zkp'
import { payments, script, Transaction } from 'liquidjs-lib'
import { SANDBOX_TREASURY_MNEMONIC } from '../../../src/main/sandbox/chain'
import { JADE_USB_IDS } from '../../../src/shared/jade'
import { FakeJade } from '../support/fake-jade'
import { installFakeSerial } from '../support/fake-serial'
import { expect, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: {
    language: 'pt-BR',
    sandbox: { rateLimits: { withdraw: 600 }, autoSettleSeconds: 1 },
    beforeOpen: null,
    trackerAutoStart: true,
    startPage: 'today',
  },
})

const OTHER_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const HEADER =
  'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução'

test('a wave signed by a (fake) Jade over Web Serial through LWK, after each failure said in words', async ({
  app,
}) => {
  test.setTimeout(300_000)
  const { page } = app
  const treasury = await FakeJade.create({ mnemonic: SANDBOX_TREASURY_MNEMONIC })
  const serial = await installFakeSerial(page, null)
  await page.reload()
  // LWK (its 9.5 MB wasm inlined in a chunk of its own) is loaded only when the Jade button is clicked.
  const lwkChunks: string[] = []
  page.on('request', (r) => {
    if (/\/assets\/lwk-in-renderer-[^/]+\.js$/.test(r.url())) lwkChunks.push(r.url())
  })

  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-jade-'))
  const file = join(dir, 'onda-jade.csv')
  writeFileSync(
    file,
    `\uFEFF${HEADER}\r\nFornecedor Jade;jade@example.com;${CPF};45,00;Serviços;Obras;${refundAddressFor(app)}\r\n`,
  )
  try {
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('run-file').setInputFiles(file)
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    const approve = page.getByTestId('approve-form')
    await approve.getByLabel('Total a receber por Pix (R$), conforme o seu controle').fill('45,00')
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await page.getByLabel('Pagamentos nesta onda').fill('1')
    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 60_000 })
    const panel = page.getByTestId('wallet-pay')
    await panel.getByRole('button', { name: 'Pagar a onda com a carteira' }).click()
    await expect(panel.getByTestId('wallet-pay-review').locator('tbody tr')).toHaveCount(1, {
      timeout: 120_000,
    })
    const jadeButton = panel.getByRole('button', { name: 'Assinar com a Jade (USB)' })
    const error = panel.getByTestId('wallet-pay-jade-error')
    const attemptState = async (): Promise<string | undefined> => {
      const r = (await app.ctx.router.handle('walletPay:list', {})) as {
        ok: true
        data: Array<{ state: string }>
      }
      return r.data[0]?.state
    }

    expect(lwkChunks).toEqual([])

    // 1. No Jade connected (or Cancelar in main's chooser): asked with exactly Jade's USB ids, refused in words.
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_no_device')
    await expect(error).toContainText('Nenhuma Jade foi escolhida')
    expect(serial.requests).toEqual([
      { filters: JADE_USB_IDS.map((i) => ({ usbVendorId: i.vendorId, usbProductId: i.productId })) },
    ])

    // 2. Another wallet's Jade: its key is not one this PSET needs, so it is never asked to sign.
    const other = await FakeJade.create({ mnemonic: OTHER_MNEMONIC })
    serial.device = other
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_wrong_wallet', { timeout: 60_000 })
    await expect(error).toContainText('Esta Jade não guarda a chave da carteira da tesouraria')
    expect(serial.opened).toEqual([115_200])
    expect(lwkChunks).toHaveLength(1)
    expect(other.methods).toEqual(['get_version_info', 'auth_user', 'get_xpub'])

    // 3. The person unplugs it and plugs in the treasury's Jade, still locked: nothing but its state is asked.
    await page.evaluate(() => (window as unknown as { __fakeSerialUnplug: () => void }).__fakeSerialUnplug())
    const locked = await FakeJade.create({ mnemonic: SANDBOX_TREASURY_MNEMONIC, state: 'LOCKED' })
    serial.device = locked
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_locked')
    await expect(error).toContainText('A Jade está bloqueada')
    expect(serial.requests).toHaveLength(3) // the new device went through the chooser again
    expect(locked.methods).toEqual(['get_version_info'])

    // 4. Unlocked, but the person declines on the device: nothing signed, the attempt still waits.
    const declining = await FakeJade.create({ mnemonic: SANDBOX_TREASURY_MNEMONIC, refuseSigning: true })
    serial.device = declining
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_refused', { timeout: 60_000 })
    await expect(error).toContainText('A Jade não assinou')
    expect(declining.methods).toContain('sign_liquid_tx')
    expect(declining.methods).not.toContain('get_signature')
    expect(await attemptState()).toBe('built')

    // 5. The Jade signs: the signed PSET goes through walletPay:import like any signer's, then broadcast.
    serial.device = treasury
    await jadeButton.click()
    await expect(panel).toContainText('Assinada e conferida: é a transação revisada.', { timeout: 60_000 })
    await expect(error).toHaveCount(0)
    const signing = treasury.methods
    expect(signing.slice(0, 2)).toEqual(['get_version_info', 'auth_user'])
    expect(signing).toContain('sign_liquid_tx')
    const inputs = signing.filter((m) => m === 'tx_input').length
    expect(inputs).toBeGreaterThan(0)
    expect(signing.filter((m) => m === 'get_signature')).toHaveLength(inputs)
    await panel.getByTestId('wallet-pay-broadcast').click()
    await expect(panel.getByTestId('wallet-pay-recorded')).toBeVisible({ timeout: 30_000 })
    expect(await attemptState()).toBe('recorded')

    // The sandbox chain checks no signatures: each input's is verified here, against its own key and sighash.
    const listed = (await app.ctx.router.handle('walletPay:list', {})) as {
      ok: true
      data: Array<{ txid: string }>
    }
    const txid = listed.data[0]?.txid as string
    const esplora = app.sandbox.esploraUrl
    const tx = Transaction.fromHex(await (await fetch(`${esplora}/tx/${txid}/hex`)).text())
    expect(tx.ins).toHaveLength(inputs)
    const { ecc } = await secp256k1()
    for (const [i, input] of tx.ins.entries()) {
      const [sig, pubkey] = input.witness
      if (!sig || !pubkey) throw new Error(`input ${i} has no signature`)
      const prevTxid = Buffer.from(input.hash).reverse().toString('hex')
      const prev = Transaction.fromHex(await (await fetch(`${esplora}/tx/${prevTxid}/hex`)).text())
      const prevOut = prev.outs[input.index]
      if (!prevOut) throw new Error(`input ${i}: prevout missing`)
      const { signature, hashType } = script.signature.decode(sig)
      const scriptCode = payments.p2pkh({ pubkey }).output as Buffer
      const hash = tx.hashForWitnessV0(i, scriptCode, prevOut.value, hashType)
      expect(hashType).toBe(Transaction.SIGHASH_ALL)
      expect(ecc.verify(hash, pubkey, signature)).toBe(true)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
