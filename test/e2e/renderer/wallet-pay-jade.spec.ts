/**
 * "Assinar com a Jade (USB)" (issue #28) in the real renderer (Chromium, the app's CSP) against the real app
 * context and the sandbox chain, with LWK's own Jade code (lwk_wasm, loaded on the click) talking CBOR over a fake
 * `navigator.serial` to a FAKE Jade written in the test (test/e2e/support/fake-jade.ts). No Jade and no serial
 * device exist on the machines this runs on; main's side (the chooser, the serial permission only for our page and
 * only for Jade's USB ids) is tested on the built main in test/build/built-main.test.ts.
 *
 * One wave of one payment: no Jade chosen; another wallet's Jade (nothing sent to sign); a locked Jade and a wrong
 * PIN (the handshake relayed by main to the test's PIN server), one naming another PIN server (relayed nowhere);
 * unlocked, but the signature refused on the device; then the Jade signs — the PSET goes through the ordinary import (same
 * transaction, same outputs), is broadcast and recorded, and every input's signature verifies against its key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import secp256k1 from '@vulpemventures/secp256k1-zkp'
import { payments, script, Transaction } from 'liquidjs-lib'
import { SANDBOX_TREASURY_MNEMONIC } from '../../../src/main/sandbox/chain'
import { JADE_USB_IDS } from '../../../src/shared/jade'
import { FakeJade, PIN_RIGHT } from '../support/fake-jade'
import { installFakeSerial } from '../support/fake-serial'
import { expect, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

/** The test's stand-in for Blockstream's PIN server, behind main's relay (AppPorts.pinServerPost). */
const pin = { right: false, posts: [] as Array<{ url: string; body: unknown }> }

/** The stand-in's POST: records what main relayed, answers as the PIN server would (placeholders). */
const pinServerPost = (url: string, body: string): Promise<{ status: number; body: string }> => {
  pin.posts.push({ url, body: JSON.parse(body) as unknown })
  const answer = url.endsWith('/start_handshake')
    ? { ske: '02ab', sig: '3045' }
    : { encrypted_key: pin.right ? PIN_RIGHT : 'wrong-pin', hmac: '6789' }
  return Promise.resolve({ status: 200, body: JSON.stringify(answer) })
}

test.use({
  // A function given to test.use is a fixture: this one hands the POST over.
  // eslint-disable-next-line no-empty-pattern
  pinServer: async ({}, use) => use(pinServerPost),
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

    // 3. The person unplugs it and plugs in the treasury's Jade, locked; the PIN typed is wrong. The handshake
    // went through main to Blockstream's PIN server (the test's stand-in) and back; nothing else was asked.
    await page.evaluate(() => (window as unknown as { __fakeSerialUnplug: () => void }).__fakeSerialUnplug())
    const locked = await FakeJade.create({ mnemonic: SANDBOX_TREASURY_MNEMONIC, state: 'LOCKED' })
    serial.device = locked
    pin.right = false
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_locked', { timeout: 60_000 })
    await expect(error).toContainText('A Jade não foi desbloqueada')
    expect(serial.requests).toHaveLength(3) // the new device went through the chooser again
    expect(locked.methods).toEqual(['get_version_info', 'auth_user', 'handshake_init', 'handshake_complete'])
    expect(pin.posts).toEqual([
      { url: 'https://j8d.io/start_handshake', body: {} },
      { url: 'https://j8d.io/get_pin', body: { cke: '03cd', encrypted_data: 'ef01', hmac: '2345' } },
    ])
    expect(locked.seen.find((r) => r.method === 'handshake_init')?.params).toEqual({
      ske: '02ab',
      sig: '3045',
    })

    // A Jade naming another PIN server: main relays nothing there, and the Jade stays locked.
    serial.device = await FakeJade.create({
      mnemonic: SANDBOX_TREASURY_MNEMONIC,
      state: 'LOCKED',
      pinServer: 'https://pin.evil.example',
    })
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_locked', { timeout: 60_000 })
    expect(pin.posts).toHaveLength(2)

    // 4. The right PIN unlocks it, but the person declines the transaction on the device: nothing signed.
    const declining = await FakeJade.create({
      mnemonic: SANDBOX_TREASURY_MNEMONIC,
      state: 'LOCKED',
      refuseSigning: true,
    })
    serial.device = declining
    pin.right = true
    await jadeButton.click()
    await expect(error).toHaveAttribute('data-error-code', 'jade_refused', { timeout: 60_000 })
    await expect(error).toContainText('A Jade não assinou')
    expect(declining.methods.slice(0, 5)).toEqual([
      'get_version_info',
      'auth_user',
      'handshake_init',
      'handshake_complete',
      'get_xpub',
    ])
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
