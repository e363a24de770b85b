/**
 * Issue #28 through the real router of a real app context (embedded sandbox, Sandbox profile): the channels answer
 * with codes and pt-BR/en sentences; a Sandbox withdrawal (lq1 deposit address) is paid through its regtest twin
 * on the sandbox chain, signed by the sandbox signer, broadcast, and seen funded by the service's own observation
 * of its chain (docs/WALLET.md, "Paying from the wallet").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { SANDBOX_TREASURY_MNEMONIC } from '../../../src/main/sandbox/chain'
import { SANDBOX_LBTC } from '../../../src/main/sandbox/chain/faucet'
import { networkOf } from '../../../src/main/wallet/descriptor'
import { loadLwk } from '../../../src/main/wallet/lwk'
import { PSET_QR_MAX_CHARS } from '../../../src/main/wallet/pay/pset-file'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { PayAttemptDto } from '../../../src/shared/channels-wallet-pay'
import type { IpcResult } from '../../../src/shared/contract'

let dataDir: string
let ctx: AppContext
const openQueue: (string | null)[] = []
const saveQueue: (string | null)[] = []
const savedNames: string[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-pay-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    walletScanSpacingMs: 0,
    ports: {
      chooseDirectory: () => Promise.resolve(null),
      // The OS dialogs answer with what the test queued (null: cancelled).
      chooseFile: () => Promise.resolve(openQueue.shift() ?? null),
      chooseSavePath: (name) => {
        savedNames.push(name)
        return Promise.resolve(saveQueue.shift() ?? null)
      },
      openExternal: () => Promise.resolve(),
    },
  })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}

describe('walletPay channels on the Sandbox profile', () => {
  it('list is empty; unknown attempts and bad input are refused with codes and sentences', async () => {
    expect(await call('walletPay:list', {})).toEqual({ ok: true, data: [] })
    const r = await call('walletPay:export', { id: 'nope' })
    expect(r).toMatchObject({ ok: false, error: { code: 'pay_illegal_state' } })
    if (r.ok) throw new Error('unreachable')
    expect(r.error.userMessage?.['pt-BR']).toBe('Esta ação não é possível na etapa atual da transação.')
    expect(await call('walletPay:build', { selected: [] })).toMatchObject({ ok: false })
  })

  it('a sandbox withdrawal (lq1 deposit address) is paid through its regtest twin; the service sees it funded', async () => {
    await call('session:signIn')
    const refund = generateLiquidAddress('liquid').address
    const draft = {
      pixKey: 'fulano@example.com',
      taxNumber: '529.982.247-25',
      amount: { kind: 'payout', cents: 5_000 },
      refundAddress: refund,
    }
    const quote = await call<{ intent: { id: string } }>('withdrawals:quote', { draft })
    if (!quote.ok) throw new Error(JSON.stringify(quote))
    const created = await call<{ localId: string; depositAddress: string }>('withdrawals:create', {
      draft,
      intentId: quote.data.intent.id,
    })
    if (!created.ok) throw new Error(JSON.stringify(created))
    expect(created.data.depositAddress).toMatch(/^lq1/)
    const built = await call<{ attempt: PayAttemptDto }>('walletPay:build', {
      selected: [{ localId: created.data.localId }],
    })
    if (!built.ok) throw new Error(JSON.stringify(built))
    const { attempt } = built.data
    // The review shows the service's own address, not the chain's twin.
    expect(attempt.lines).toMatchObject([
      { localId: created.data.localId, address: created.data.depositAddress },
    ])
    const signed = await call<{ attempt: PayAttemptDto; missing: number }>('walletPay:signSandbox', {
      id: attempt.id,
    })
    expect(signed).toMatchObject({ ok: true, data: { missing: 0, attempt: { state: 'signed' } } })
    const sent = await call<PayAttemptDto>('walletPay:broadcast', { id: attempt.id })
    expect(sent).toMatchObject({ ok: true, data: { state: 'recorded', txid: attempt.txid } })
    // Funded by the service only once a block has it: its own observation of its chain.
    ctx.sandbox!.control.advanceClock(61)
    ctx.sandbox!.liquid.mineDue()
    const seen = await call<{ remoteStatus: string; fundingTxId: string }>('withdrawals:refresh', {
      localId: created.data.localId,
    })
    expect(seen).toMatchObject({ ok: true, data: { remoteStatus: 'sending', fundingTxId: attempt.txid } })
    // A second build for the same payment is refused: its recorded attempt holds it.
    expect(await call('walletPay:build', { selected: [{ localId: created.data.localId }] })).toMatchObject({
      ok: false,
      error: { code: 'pay_already_in_funding' },
    })
  })

  it('the PSET goes out as a file and comes back signed from a file; the QR says when it does not fit', async () => {
    const draft = {
      pixKey: 'beltrano@example.com',
      taxNumber: '529.982.247-25',
      amount: { kind: 'payout', cents: 7_500 },
      refundAddress: generateLiquidAddress('liquid').address,
    }
    const quote = await call<{ intent: { id: string } }>('withdrawals:quote', { draft })
    if (!quote.ok) throw new Error(JSON.stringify(quote))
    const created = await call<{ localId: string }>('withdrawals:create', {
      draft,
      intentId: quote.data.intent.id,
    })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const built = await call<{ attempt: PayAttemptDto }>('walletPay:build', {
      selected: [{ localId: created.data.localId }],
    })
    if (!built.ok) throw new Error(JSON.stringify(built))
    const { id, txid } = built.data.attempt

    // A blinded PSET carries its inputs' range proofs: even one payment is far beyond one QR code.
    const qr = await call<{ fits: boolean; chars: number; maxChars: number }>('walletPay:qr', { id })
    expect(qr).toMatchObject({ ok: true, data: { fits: false, maxChars: PSET_QR_MAX_CHARS } })
    if (!qr.ok) throw new Error('unreachable')
    expect(qr.data.chars).toBeGreaterThan(PSET_QR_MAX_CHARS)

    // Saved where the operator chose, under a name with the txid; cancelling the dialog saves nothing.
    const out = join(dataDir, 'para-assinar.pset')
    saveQueue.push(null, out)
    expect(await call('walletPay:savePset', { id })).toEqual({ ok: true, data: { saved: false } })
    expect(await call('walletPay:savePset', { id })).toEqual({ ok: true, data: { saved: true } })
    expect(savedNames.at(-1)).toBe(`depix-pagamento-${txid.slice(0, 12)}.pset`)
    const exported = await call<{ pset: string; network: string; signers: string[] }>('walletPay:export', {
      id,
    })
    if (!exported.ok) throw new Error('unreachable')
    expect(readFileSync(out, 'utf8').trim()).toBe(exported.data.pset)
    // What "Assinar com a Jade (USB)" checks a Jade against: the treasury key's fingerprint (the Sandbox wallet's
    // chain is regtest, whatever its lq1 addresses say).
    const lwkForFp = loadLwk()
    const treasuryFp = new lwkForFp.Signer(
      new lwkForFp.Mnemonic(SANDBOX_TREASURY_MNEMONIC),
      lwkForFp.Network.regtestDefault(),
    ).fingerprint()
    expect(exported.data).toMatchObject({ network: 'regtest', signers: [treasuryFp] })

    // An external signer (LWK's software Signer with the sandbox treasury keys) signs the file's PSET and hands
    // back a binary PSET file. A file that is not a PSET is refused and changes nothing; a cancelled dialog neither.
    const lwk = loadLwk()
    const signer = new lwk.Signer(
      new lwk.Mnemonic(SANDBOX_TREASURY_MNEMONIC),
      networkOf(lwk, 'regtest', SANDBOX_LBTC),
    )
    const signed = signer.sign(new lwk.Pset(readFileSync(out, 'utf8').trim())).toString()
    const back = join(dataDir, 'assinada.pset')
    writeFileSync(back, Buffer.from(signed, 'base64'))
    const junk = join(dataDir, 'junk.pset')
    writeFileSync(junk, 'isto não é uma PSET')
    openQueue.push(null, junk, back)
    expect(await call('walletPay:loadSigned', { id })).toEqual({ ok: true, data: null })
    const refused = await call('walletPay:loadSigned', { id })
    expect(refused).toMatchObject({ ok: false, error: { code: 'pay_not_a_pset' } })
    const loaded = await call<{ attempt: PayAttemptDto; missing: number }>('walletPay:loadSigned', { id })
    expect(loaded).toMatchObject({ ok: true, data: { missing: 0, attempt: { state: 'signed', txid } } })
    // Signed: nothing more to save or load; broadcast records it.
    expect(await call('walletPay:savePset', { id })).toMatchObject({
      ok: false,
      error: { code: 'pay_illegal_state' },
    })
    expect(await call('walletPay:broadcast', { id })).toMatchObject({
      ok: true,
      data: { state: 'recorded', txid },
    })
  })
})
