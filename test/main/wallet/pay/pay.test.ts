/**
 * Paying from the wallet over the real sandbox chain (loopback Esplora), a real SQLite ledger and the real
 * withdrawal service: one PSET for a selection, reviewed against LWK's PsetDetails, signed out of process the way an
 * external wallet would (LWK's software Signer on the exported base64), imported, broadcast, recorded — and every
 * way it must refuse.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { newKeyedAddress, regtestTwin } from '../../../../src/main/sandbox/chain/keys'
import { loadLwk } from '../../../../src/main/wallet/pay/../lwk'
import { buildPayment, buildPaymentOffThread } from '../../../../src/main/wallet/pay/build'
import { buildWorkerPath } from '../../../../src/main/wallet/pay/build-worker-path'
import { PayRefusal } from '../../../../src/main/wallet/pay/errors'
import { DEADLINE_MARGIN_MS, lineFor } from '../../../../src/main/wallet/pay/lines'
import { reviewPset } from '../../../../src/main/wallet/pay/review'
import type { BuildProgress } from '../../../../src/main/wallet/pay/service'
import type { FundingGuard } from '../../../../src/main/wallet/pay/team-guard'
import { startHarness, type Harness } from '../../sandbox/chain/harness'
import { multisigRegtest, regtestSigner, singlesigRegtest } from '../fixtures'
import { ASSETS, openDesk, seedPayment, writeAnswers, type Answers, type Desk } from './desk'

const lwk = loadLwk()
let nextSeed = 40
const UNITS = 1_000_000n // per cent

let h: Harness
const dirs: string[] = []
const desks: Desk[] = []
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h.close()
})
afterEach(() => {
  for (const d of desks.splice(0)) d.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

interface Setup {
  desk: Desk
  dir: string
  answers: Answers
  pays: { localId: string; remoteId: string; address: string; script: string; cents: number }[]
  /** the wallet's signer seed (singlesig) */
  seed: number
}

/** A funded wallet and `cents.length` payments waiting for their deposits. */
async function setup(
  cents: number[],
  o: {
    descriptor?: string
    depix?: bigint
    lbtc?: bigint
    expiresInMs?: number
    guard?: FundingGuard
    buildWorker?: string
    progress?: (p: BuildProgress) => void
  } = {},
): Promise<Setup> {
  const seed = (nextSeed += 1)
  const dir = mkdtempSync(join(tmpdir(), 'pay-'))
  dirs.push(dir)
  const desk = openDesk({
    dir,
    esploraUrl: h.esplora.url,
    descriptor: o.descriptor ?? singlesigRegtest(seed),
    now: () => h.clockMs.now,
    ...(o.guard ? { guard: o.guard } : {}),
    ...(o.buildWorker !== undefined ? { buildWorker: o.buildWorker } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
  })
  desks.push(desk)
  const to = desk.wallet.address().address
  const funds = [
    { address: to, asset: ASSETS.depix, units: o.depix ?? 100_000n * 100n * UNITS },
    ...(o.lbtc === 0n ? [] : [{ address: to, asset: ASSETS.lbtc, units: o.lbtc ?? 1_000_000n }]),
  ]
  h.faucet.send(funds)
  h.chain.mine()
  const answers: Answers = {}
  const pays = cents.map((c) => {
    const p = seedPayment(desk.ledger, c)
    const a = newKeyedAddress()
    h.book.addBlindingKey(a.script, a.blindingPrivateKey)
    answers[p.remoteId] = {
      id: p.remoteId,
      status: 'unsent',
      pixKey: p.pixKey,
      depositAddress: a.address,
      depositAmountInCents: c,
      expiration: new Date(h.clockMs.now + (o.expiresInMs ?? 3 * 3_600_000)).toISOString(),
    }
    return { localId: p.localId, remoteId: p.remoteId, address: a.address, script: a.script, cents: c }
  })
  writeAnswers(dir, answers)
  return { desk, dir, answers, pays, seed }
}

/** What an external wallet does with the exported base64: parse, sign with its own keys, hand back base64. */
const externalSign = (base64: string, seed: number): string =>
  regtestSigner(seed).sign(new lwk.Pset(base64)).toString()

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<PayRefusal> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    if (e instanceof PayRefusal) return e
    throw e
  }
  throw new Error('expected a refusal')
}

/** What the chain's own book says was paid to each deposit script by `txid`. */
function paidTo(txid: string, scripts: string[]): Map<string, bigint> {
  const out = new Map<string, bigint>()
  const n = (h.chain.tx(txid)?.hex.length ?? 0) > 0 ? 200 : 0
  for (let vout = 0; vout < n; vout++) {
    const o = h.book.output(txid, vout)
    if (o && scripts.includes(o.script) && o.asset === ASSETS.depix)
      out.set(o.script, (out.get(o.script) ?? 0n) + o.units)
  }
  return out
}

describe('one transaction for a selection of payments', () => {
  it('builds from the fresh status, reviews, exports, imports the signed PSET, broadcasts and records', async () => {
    const { desk, pays, seed } = await setup([1_102, 25_000, 99])
    const built = await desk.pay.build(
      pays.map((p) => ({ localId: p.localId, address: p.address, cents: p.cents })),
    )
    // Re-confirmed against GET /withdraw-status right before building, once per payment.
    expect(desk.statusCalls.sort()).toEqual(pays.map((p) => p.remoteId).sort())
    const r = built.review
    expect(r.lines.map((l) => [l.localId, l.address, l.units])).toEqual(
      expect.arrayContaining(pays.map((p) => [p.localId, p.address, BigInt(p.cents) * UNITS])),
    )
    expect(r.lines).toHaveLength(3)
    expect(r.totalUnits).toBe(26_201n * UNITS)
    expect(r.feeUnits).toBeGreaterThan(0n)
    expect(r.depixAfter).toBe(100_000n * 100n * UNITS - 26_201n * UNITS)
    expect(r.lbtcAfter).toBe(1_000_000n - r.feeUnits)
    expect(built.attempt.state).toBe('built')

    const exported = desk.pay.exportPset(built.attempt.id)
    const imported = desk.pay.importSigned(built.attempt.id, externalSign(exported, seed))
    expect(imported).toMatchObject({ missing: 0, attempt: { state: 'signed' } })
    // Signed: the final transaction is kept for the broadcast (and recovery); the PSETs leave the file.
    expect(desk.attempts.get(built.attempt.id)).toMatchObject({ built: null, pset: null })
    expect(desk.attempts.get(built.attempt.id)?.txHex).toMatch(/^[0-9a-f]{100,}$/)
    const done = await desk.pay.broadcast(built.attempt.id)
    expect(done.state).toBe('recorded')
    // Recorded: the PSETs and the transaction leave the attempts file; the txid and the payments stay.
    expect(desk.attempts.get(built.attempt.id)).toMatchObject({
      built: null,
      pset: null,
      txHex: null,
      txid: r.txid,
    })
    expect(h.chain.tx(r.txid)).toBeDefined()
    // The chain's own book (sandbox blinding keys, not LWK) reads the exact units at every deposit address.
    const paid = paidTo(
      r.txid,
      pays.map((p) => p.script),
    )
    for (const p of pays) expect(paid.get(p.script)).toBe(BigInt(p.cents) * UNITS)
    for (const p of pays) {
      const rec = desk.ledger.get(p.localId)
      expect(rec).toMatchObject({ fundingTxId: r.txid })
      expect(rec?.fundedAt).not.toBeNull()
      const funded = desk.ledger
        .audit({ subject: p.localId })
        .rows.filter((a) => a.action === 'withdrawal.funded')
      expect(funded).toHaveLength(1)
    }
    // Funded now: the same payments cannot go into another PSET.
    const again = await refusal(desk.pay.build([{ localId: pays[0]!.localId }]))
    expect(again.code).toBe('already_in_funding')
  })

  it('on a team: the database claims at build and again before broadcast, releases on cancel, keeps on record', async () => {
    // The team database as the desk sees it (its SQL is tested on PostgreSQL in team-guard.test.ts): one live
    // attempt per payment, plus every call in order.
    const held = new Map<string, string>()
    const calls: string[] = []
    const guard: FundingGuard = {
      claim: (id, ids) => {
        calls.push(`claim ${id}`)
        const taken = ids.find((l) => held.has(l) && held.get(l) !== id)
        if (taken) return Promise.reject(new PayRefusal('already_in_funding', { localId: taken }))
        for (const l of ids) held.set(l, id)
        return Promise.resolve()
      },
      release: (id) => {
        calls.push(`release ${id}`)
        for (const [l, a] of held) if (a === id) held.delete(l)
        return Promise.resolve()
      },
      recorded: (id) => {
        calls.push(`recorded ${id}`)
        return Promise.resolve()
      },
    }
    const { desk, pays, seed } = await setup([1_000, 2_000], { guard })
    // Another desk of the team holds the second payment: refused, and this desk keeps nothing live.
    held.set(pays[1]!.localId, 'other-desk')
    const r = await refusal(desk.pay.build(pays.map((p) => ({ localId: p.localId }))))
    expect(r).toMatchObject({ code: 'already_in_funding', details: { localId: pays[1]!.localId } })
    expect(desk.attempts.all().map((a) => a.state)).toEqual(['cancelled'])
    expect(desk.attempts.holding(pays[0]!.localId)).toBeUndefined()
    // Cancelled on this desk first, then released in the database.
    held.delete(pays[1]!.localId)
    const first = await desk.pay.build([{ localId: pays[0]!.localId }])
    await desk.pay.cancel(first.attempt.id)
    expect(desk.attempts.get(first.attempt.id)?.state).toBe('cancelled')
    expect(held.has(pays[0]!.localId)).toBe(false)
    // Built, then another desk takes the payment meanwhile (e.g. this build crashed before its claim):
    // the broadcast claims again and is refused before anything leaves.
    const built = await desk.pay.build(pays.map((p) => ({ localId: p.localId })))
    desk.pay.importSigned(built.attempt.id, externalSign(desk.pay.exportPset(built.attempt.id), seed))
    held.set(pays[0]!.localId, 'other-desk')
    expect((await refusal(desk.pay.broadcast(built.attempt.id))).code).toBe('already_in_funding')
    expect(h.chain.tx(built.attempt.txid)).toBeUndefined()
    held.set(pays[0]!.localId, built.attempt.id)
    expect((await desk.pay.broadcast(built.attempt.id)).state).toBe('recorded')
    const id = built.attempt.id
    expect(calls.slice(-4)).toEqual([`claim ${id}`, `claim ${id}`, `claim ${id}`, `recorded ${id}`])
    expect(calls).toContain(`release ${first.attempt.id}`)
  })

  it('Sandbox only: an lq1 deposit address is paid through its regtest twin; without chainAddress it is refused', async () => {
    const { desk, pays } = await setup([700])
    await desk.wallet.scan(h.esplora.url)
    const lq = newKeyedAddress('liquid')
    h.book.addBlindingKey(lq.script, lq.blindingPrivateKey)
    const line = {
      localId: pays[0]!.localId,
      payee: null,
      cents: 700,
      units: 700n * UNITS,
      address: lq.address,
      expiration: null,
    }
    // A live profile's assets have no chainAddress: another network's address is refused by name.
    expect(await refusal(() => buildPayment(desk.wallet, [line], ASSETS))).toMatchObject({
      code: 'not_payable',
      details: { problem: 'deposit_address_other_network' },
    })
    const sandbox = { ...ASSETS, chainAddress: regtestTwin }
    const built = buildPayment(desk.wallet, [line], sandbox)
    // The review keeps the service's own address; the output is the twin's script, the very one the service watches.
    expect(built.review.lines.map((l) => l.address)).toEqual([lq.address])
    const pset = new lwk.Pset(built.pset)
    expect(() => reviewPset(desk.wallet, pset, [line], ASSETS)).toThrow(PayRefusal)
    const out = pset.outputs()[built.review.lines[0]!.vout]!
    expect(out.scriptPubkey().toString()).toBe(lq.script)
  })

  it('refuses, with how much is missing, when the DePix or the L-BTC for the fee is short', async () => {
    const s1 = await setup([5_000, 5_000], { depix: 9_000n * UNITS })
    const short = await refusal(s1.desk.pay.build(s1.pays.map((p) => ({ localId: p.localId }))))
    expect(short).toMatchObject({ code: 'depix_short', details: { missingUnits: String(1_000n * UNITS) } })
    const s2 = await setup([5_000], { lbtc: 0n })
    const noFee = await refusal(s2.desk.pay.build(s2.pays.map((p) => ({ localId: p.localId }))))
    expect(noFee.code).toBe('lbtc_short')
    // A mainnet deposit address for a regtest wallet: refused by name, not mistaken for a fee shortage.
    const [line] = s1.pays
    const mainnet =
      'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'
    const e = await refusal(() =>
      buildPayment(
        s1.desk.wallet,
        [{ localId: line!.localId, payee: null, cents: 1, units: UNITS, address: mainnet, expiration: null }],
        ASSETS,
      ),
    )
    expect(e).toMatchObject({ code: 'not_payable', details: { problem: 'deposit_address_other_network' } })
    expect(BigInt(noFee.details.missingUnits ?? '0')).toBeGreaterThan(0n)
    expect(s1.desk.attempts.all()).toEqual([])
  })

  it('refuses a deadline too close, an address or amount changed since selected, a payment already declared sent', async () => {
    const late = await setup([700], { expiresInMs: DEADLINE_MARGIN_MS - 60_000 })
    expect((await refusal(late.desk.pay.build([{ localId: late.pays[0]!.localId }]))).code).toBe(
      'deadline_too_close',
    )
    const s = await setup([700, 800, 900])
    const [a, b, c] = s.pays as [Setup['pays'][0], Setup['pays'][0], Setup['pays'][0]]
    // The screen showed one address; the service now answers another.
    const moved = await refusal(
      s.desk.pay.build([{ localId: a.localId, address: newKeyedAddress().address }]),
    )
    expect(moved).toMatchObject({ code: 'changed_since_selected', details: { what: 'address' } })
    const other = await refusal(s.desk.pay.build([{ localId: b.localId, cents: 801 }]))
    expect(other).toMatchObject({ code: 'changed_since_selected', details: { what: 'amount' } })
    await s.desk.withdrawals.markFunded(c.localId, {})
    const sent = await refusal(s.desk.pay.build([{ localId: c.localId }]))
    expect(sent).toMatchObject({ code: 'not_payable', details: { problem: 'already_declared_sent' } })
  })
})

describe('never twice', () => {
  it('a payment in a built PSET is refused for another until that one is cancelled', async () => {
    const { desk, pays } = await setup([300, 400])
    const first = await desk.pay.build([{ localId: pays[0]!.localId }, { localId: pays[1]!.localId }])
    const e = await refusal(desk.pay.build([{ localId: pays[1]!.localId }]))
    expect(e).toMatchObject({ code: 'already_in_funding', details: { attemptId: first.attempt.id } })
    await desk.pay.cancel(first.attempt.id)
    const second = await desk.pay.build([{ localId: pays[1]!.localId }])
    expect(second.review.lines.map((l) => l.localId)).toEqual([pays[1]!.localId])
  })

  it('a signed PSET the signer already broadcast cannot be cancelled; recovery records it', async () => {
    const { desk, pays, seed } = await setup([333])
    const b = await desk.pay.build([{ localId: pays[0]!.localId }])
    const { attempt } = desk.pay.importSigned(
      b.attempt.id,
      externalSign(desk.pay.exportPset(b.attempt.id), seed),
    )
    h.chain.submit(attempt.txHex as string) // the signer's wallet broadcast it too
    expect((await refusal(desk.pay.cancel(b.attempt.id))).code).toBe('illegal_state')
    const recovered = await desk.pay.recover()
    expect(recovered.map((a) => a.id)).toEqual([b.attempt.id])
    expect(desk.ledger.get(pays[0]!.localId)?.fundingTxId).toBe(b.review.txid)
  })
})

describe('a PSET that is not the one reviewed is refused before broadcast', () => {
  async function built(): Promise<{ s: Setup; id: string; txid: string }> {
    const s = await setup([1_000, 2_000])
    const b = await s.desk.pay.build(s.pays.map((p) => ({ localId: p.localId })))
    return { s, id: b.attempt.id, txid: b.review.txid }
  }
  /** A PSET the same wallet builds with `lines` changed, signed by the real key: only the review can catch it. */
  function forged(s: Setup, change: (l: { address: string; units: bigint }[]) => void, extraInput = false) {
    const lines = s.pays.map((p) => ({ address: p.address, units: BigInt(p.cents) * UNITS }))
    change(lines)
    let tb = new lwk.TxBuilder(s.desk.wallet.lwkNetwork)
    for (const l of lines)
      tb = tb.addRecipient(new lwk.Address(l.address), l.units, new lwk.AssetId(ASSETS.depix))
    if (extraInput) tb = tb.setWalletUtxos(s.desk.wallet.lwkWollet.utxos().map((u) => u.outpoint()))
    return externalSign(tb.finish(s.desk.wallet.lwkWollet).toString(), s.seed)
  }

  it.each([
    [
      'an output swapped to another address',
      (l: { address: string }[]) => void (l[1]!.address = newKeyedAddress().address),
    ],
    ['an amount changed', (l: { units: bigint }[]) => void (l[0]!.units += 1n)],
    ['from another build of the same payments', () => undefined],
  ])('%s', async (_name, change) => {
    const { s, id, txid } = await built()
    const e = await refusal(() => s.desk.pay.importSigned(id, forged(s, change)))
    expect(e).toMatchObject({ code: 'pset_mismatch', details: { what: 'another transaction' } })
    expect(s.desk.attempts.get(id)?.state).toBe('built')
    expect(h.chain.tx(txid)).toBeUndefined()
  })

  it('an input added', async () => {
    const { s, id } = await built()
    // A second coin, so "every coin of the wallet" is more inputs than the build used.
    h.faucet.send([{ address: s.desk.wallet.address().address, asset: ASSETS.depix, units: 5n * UNITS }])
    h.chain.mine()
    await s.desk.wallet.scan(h.esplora.url)
    const forgedPset = forged(s, () => undefined, true)
    const builtInputs = new lwk.Pset(s.desk.attempts.get(id)!.built as string).inputs().length
    expect(new lwk.Pset(forgedPset).inputs().length).toBeGreaterThan(builtInputs)
    const e = await refusal(() => s.desk.pay.importSigned(id, forgedPset))
    expect(e).toMatchObject({ code: 'pset_mismatch', details: { what: 'another transaction' } })
  })

  it('garbage, an unsigned PSET, and the review refusing a foreign input or an extra output', async () => {
    const { s, id } = await built()
    expect((await refusal(() => s.desk.pay.importSigned(id, 'not a pset'))).code).toBe('not_a_pset')
    expect((await refusal(() => s.desk.pay.importSigned(id, s.desk.pay.exportPset(id)))).code).toBe(
      'not_signed',
    )
    // Another wallet's PSET paying the same lines: every input is foreign to ours.
    const other = await setup([10])
    await other.desk.wallet.scan(h.esplora.url)
    const lines = s.pays.map((p) => ({ ...p, payee: null, units: BigInt(p.cents) * UNITS, expiration: null }))
    const theirs = buildPayment(other.desk.wallet, lines, ASSETS)
    const foreign = await refusal(() => reviewPset(s.desk.wallet, new lwk.Pset(theirs.pset), lines, ASSETS))
    expect(foreign.details.what).toMatch(/^foreign input/)
    // Our PSET with one more output than the selection.
    const extra = buildPayment(
      s.desk.wallet,
      [...lines, { ...lines[0]!, localId: 'x', address: newKeyedAddress().address }],
      ASSETS,
    )
    const more = await refusal(() => reviewPset(s.desk.wallet, new lwk.Pset(extra.pset), lines, ASSETS))
    expect(more.code).toBe('pset_mismatch')
  })
})

describe('2-of-3 multisig', () => {
  it('collects two signatures, one import at a time, then broadcasts', async () => {
    const { desk, pays } = await setup([4_321], { descriptor: multisigRegtest() })
    const b = await desk.pay.build([{ localId: pays[0]!.localId }])
    const bySigner11 = externalSign(desk.pay.exportPset(b.attempt.id), 11)
    const first = desk.pay.importSigned(b.attempt.id, bySigner11)
    expect(first.attempt.state).toBe('built')
    expect(first.missing).toBeGreaterThan(0)
    // The same signature imported twice adds nothing: still one short of the threshold.
    expect((await refusal(() => desk.pay.importSigned(b.attempt.id, bySigner11))).code).toBe('not_signed')
    // The second analyst signs what was exported after the first signature.
    const second = desk.pay.importSigned(b.attempt.id, externalSign(desk.pay.exportPset(b.attempt.id), 13))
    expect(second).toMatchObject({ missing: 0, attempt: { state: 'signed' } })
    const done = await desk.pay.broadcast(b.attempt.id)
    expect(done.state).toBe('recorded')
    expect(paidTo(b.review.txid, [pays[0]!.script]).get(pays[0]!.script)).toBe(4_321n * UNITS)
  })
})

describe('a funding that fails', () => {
  it('a broadcast the chain refuses (coins already spent) goes back to signed, records nothing, and can be cancelled', async () => {
    const { desk, pays, seed } = await setup([111, 222])
    const a = await desk.pay.build([{ localId: pays[0]!.localId }])
    const b = await desk.pay.build([{ localId: pays[1]!.localId }])
    // Both built from the same wallet state: LWK picked the same coins, so only one can make it.
    expect(b.review.inputs.some((i) => a.review.inputs.includes(i))).toBe(true)
    for (const x of [a, b])
      desk.pay.importSigned(x.attempt.id, externalSign(desk.pay.exportPset(x.attempt.id), seed))
    await desk.pay.broadcast(a.attempt.id)
    const e = await refusal(desk.pay.broadcast(b.attempt.id))
    expect(e.code).toBe('broadcast_failed')
    expect(desk.attempts.get(b.attempt.id)).toMatchObject({
      state: 'signed',
      lastError: expect.stringContaining('400'),
    })
    expect(desk.ledger.get(pays[1]!.localId)?.fundingTxId).toBeNull()
    await desk.pay.cancel(b.attempt.id)
    // Free again: a new build (from the wallet as the chain now has it) pays it.
    const c = await desk.pay.build([{ localId: pays[1]!.localId }])
    desk.pay.importSigned(c.attempt.id, externalSign(desk.pay.exportPset(c.attempt.id), seed))
    expect((await desk.pay.broadcast(c.attempt.id)).state).toBe('recorded')
    expect(desk.ledger.get(pays[1]!.localId)?.fundingTxId).toBe(c.review.txid)
  })

  it('an attempts file that does not read back refuses every build (fail closed)', async () => {
    const { desk, pays, dir } = await setup([500])
    writeFileSync(join(dir, 'pay-attempts.json'), '{"version":1,"attempts":[{"id":1}]}')
    await expect(desk.pay.build([{ localId: pays[0]!.localId }])).rejects.toThrow(/does not read back/)
    expect(desk.statusCalls).toEqual([])
  })
})

describe('the chain unreachable while building', () => {
  it('refuses to build from coins it could not read now; nothing kept', async () => {
    const { desk, pays } = await setup([640])
    h.esplora.setFault({ kind: 'down' })
    try {
      const e = await refusal(desk.pay.build([{ localId: pays[0]!.localId }]))
      expect(e.code).toBe('chain_unreachable')
    } finally {
      h.esplora.setFault(null)
    }
    expect(desk.attempts.all()).toEqual([])
  }, 60_000)
})

describe('LWK builds on a worker thread, as in the app', () => {
  it('main stays free while LWK blinds: the same checked review, signed, broadcast, every output paid', async () => {
    const cents = Array.from({ length: 30 }, (_, i) => 1_000 + i)
    const progress: string[] = []
    const { desk, pays, seed } = await setup(cents, {
      buildWorker: buildWorkerPath,
      progress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`),
    })
    await desk.wallet.scan(h.esplora.url)
    const ctx = {
      network: 'regtest' as const,
      profile: 'sandbox',
      assetId: ASSETS.depix,
      now: () => h.clockMs.now,
    }
    const lines = []
    for (const p of pays)
      lines.push(lineFor(ctx, await desk.withdrawals.refresh(p.localId), { localId: p.localId }))
    // How much of the build main's event loop spent busy: on this thread LWK's blinding of 30 outputs is nearly
    // all of it; on the worker, main only checks the request and reviews the result.
    const before = performance.eventLoopUtilization()
    const t = performance.now()
    const off = await buildPaymentOffThread(desk.wallet, lines, ASSETS, buildWorkerPath)
    const busy = performance.eventLoopUtilization(before).active
    expect(busy).toBeLessThan((performance.now() - t) / 2)
    expect(off.review.lines).toHaveLength(30)

    // Through the service as the app runs it: the PSET the worker built is reviewed, signed and pays every output.
    const built = await desk.pay.build(pays.map((p) => ({ localId: p.localId })))
    // The screen's progress: every status read counted, then LWK building.
    expect(progress).toEqual([...Array.from({ length: 31 }, (_, i) => `status ${i}/30`), 'building 0/30'])
    expect(built.review.lines.map((l) => l.localId).sort()).toEqual(pays.map((p) => p.localId).sort())
    expect(built.review.totalUnits).toBe(cents.reduce((s, c) => s + BigInt(c), 0n) * UNITS)
    desk.pay.importSigned(built.attempt.id, externalSign(desk.pay.exportPset(built.attempt.id), seed))
    expect((await desk.pay.broadcast(built.attempt.id)).state).toBe('recorded')
    const paid = paidTo(
      built.review.txid,
      pays.map((p) => p.script),
    )
    for (const p of pays) expect(paid.get(p.script)).toBe(BigInt(p.cents) * UNITS)
  }, 180_000)

  it('a fee the wallet cannot pay is still refused with how much L-BTC is missing; nothing kept', async () => {
    const poor = await setup([5_000], { lbtc: 3n, buildWorker: buildWorkerPath })
    const short = await refusal(poor.desk.pay.build([{ localId: poor.pays[0]!.localId }]))
    expect(short.code).toBe('lbtc_short')
    expect(BigInt(short.details.missingUnits ?? '0')).toBeGreaterThan(0n)
    expect(poor.desk.attempts.all()).toEqual([])
  }, 60_000)
})
