/**
 * SIGKILL while paying from the wallet: a child process builds, signs (sandbox signer) and broadcasts one
 * transaction for three payments and is killed after signing, after the broadcast intent is kept but before the
 * POST, after the broadcast before recording, and during recording. The chain (hosted here, like the sandbox) and the
 * files survive; a restarted desk recovers. Every time: each payment funded by exactly one transaction on the chain,
 * its txid recorded once, and no second PSET can take it.
 *
 * The child is `node --import tsx`, not the `tsx` binary (whose grandchild a SIGKILL would orphan).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newKeyedAddress } from '../../../../src/main/sandbox/chain/keys'
import { PayRefusal } from '../../../../src/main/wallet/pay/errors'
import { startHarness, type Harness } from '../../sandbox/chain/harness'
import { singlesigRegtest } from '../fixtures'
import { ASSETS, openDesk, seedPayment, writeAnswers, type Answers } from './desk'

const REPO = resolve(__dirname, '../../../..')
const CHILD = join(__dirname, 'fixtures', 'pay-child.ts')
const UNITS = 1_000_000n

let h: Harness
const dirs: string[] = []
beforeAll(async () => {
  h = await startHarness()
  h.clockMs.now = Date.now() // the child runs on the real clock
})
afterAll(async () => {
  await h.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function runChild(
  args: string[],
): Promise<{ signal: string | number | null; lines: string[]; err: string[] }> {
  const proc = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', CHILD, ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const err: string[] = []
  createInterface({ input: proc.stdout }).on('line', (l) => lines.push(l))
  createInterface({ input: proc.stderr }).on('line', (l) => err.push(l))
  return new Promise((res) => proc.on('exit', (code, signal) => res({ signal: signal ?? code, lines, err })))
}

let seed = 70
async function crashAt(step: string) {
  seed += 1
  const dir = mkdtempSync(join(tmpdir(), 'pay-crash-'))
  dirs.push(dir)
  const desk = openDesk({ dir, esploraUrl: h.esplora.url, descriptor: singlesigRegtest(seed), now: Date.now })
  h.faucet.send([
    { address: desk.wallet.address().address, asset: ASSETS.depix, units: 10_000n * UNITS },
    { address: desk.wallet.address().address, asset: ASSETS.lbtc, units: 100_000n },
  ])
  h.chain.mine()
  const answers: Answers = {}
  const pays = [150, 275, 999].map((cents) => {
    const p = seedPayment(desk.ledger, cents)
    const a = newKeyedAddress()
    h.book.addBlindingKey(a.script, a.blindingPrivateKey)
    answers[p.remoteId] = {
      id: p.remoteId,
      status: 'unsent',
      pixKey: p.pixKey,
      depositAddress: a.address,
      depositAmountInCents: cents,
      expiration: new Date(Date.now() + 3_600_000).toISOString(),
    }
    return { ...p, script: a.script, cents }
  })
  writeAnswers(dir, answers)
  desk.close()
  const child = await runChild([dir, h.esplora.url, String(seed), step, pays.map((p) => p.localId).join(',')])
  expect(child.err).toEqual([])
  expect(child.signal).toBe('SIGKILL')
  expect(child.lines).toContain(`step ${step} ${child.lines[0]?.split(' ')[1]}`)
  const txid = child.lines[0]?.split(' ')[2] as string
  return { dir, pays, txid }
}

/** Every payment: exactly one transaction on the chain pays its deposit address, and its record carries that txid once. */
function expectFundedOnce(
  dir: string,
  pays: { localId: string; script: string; cents: number }[],
  txid: string,
) {
  const desk = openDesk({ dir, esploraUrl: h.esplora.url, descriptor: singlesigRegtest(seed), now: Date.now })
  try {
    for (const p of pays) {
      const history = h.chain.history(p.script)
      expect(history.map((x) => x.txid)).toEqual([txid])
      const rec = desk.ledger.get(p.localId)
      expect(rec?.fundingTxId).toBe(txid)
      const funded = desk.ledger
        .audit({ subject: p.localId })
        .rows.filter((a) => a.action === 'withdrawal.funded')
      expect(funded).toHaveLength(1)
    }
    const paid = new Map<string, bigint>()
    for (let vout = 0; vout < 10; vout++) {
      const o = h.book.output(txid, vout)
      if (o && o.asset === ASSETS.depix) paid.set(o.script, o.units)
    }
    for (const p of pays) expect(paid.get(p.script)).toBe(BigInt(p.cents) * UNITS)
  } finally {
    desk.close()
  }
}

function restart(dir: string) {
  const desk = openDesk({ dir, esploraUrl: h.esplora.url, descriptor: singlesigRegtest(seed), now: Date.now })
  return desk
}

describe('SIGKILL while paying, then restart', () => {
  it('after signing: nothing on the chain; the payments stay held; broadcasting it completes', async () => {
    const { dir, pays, txid } = await crashAt('signed')
    expect(h.chain.tx(txid)).toBeUndefined()
    const desk = restart(dir)
    expect(await desk.pay.recover()).toEqual([])
    const again = await desk.pay.build([{ localId: pays[0]!.localId }]).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(PayRefusal)
    expect(again).toMatchObject({ code: 'already_in_funding' })
    const [attempt] = desk.attempts.all()
    expect(attempt).toMatchObject({ state: 'signed', txid })
    await desk.pay.broadcast(attempt!.id)
    desk.close()
    expectFundedOnce(dir, pays, txid)
  }, 60_000)

  it('after keeping the broadcast intent, before the POST: recovery broadcasts the same transaction and records', async () => {
    const { dir, pays, txid } = await crashAt('before_broadcast')
    expect(h.chain.tx(txid)).toBeUndefined()
    const desk = restart(dir)
    expect((await desk.pay.recover()).map((a) => a.txid)).toEqual([txid])
    expect(await desk.pay.recover()).toEqual([])
    desk.close()
    expectFundedOnce(dir, pays, txid)
  }, 60_000)

  it('after the broadcast, before recording: recovery finds the transaction and records it', async () => {
    const { dir, pays, txid } = await crashAt('broadcast')
    expect(h.chain.tx(txid)).toBeDefined()
    const desk = restart(dir)
    for (const p of pays) expect(desk.ledger.get(p.localId)?.fundingTxId).toBeNull()
    expect((await desk.pay.recover()).map((a) => a.txid)).toEqual([txid])
    desk.close()
    expectFundedOnce(dir, pays, txid)
  }, 60_000)

  it('during recording (the ledger has every payment, the attempt is not recorded): recovery completes, none twice', async () => {
    const { dir, pays, txid } = await crashAt('recording')
    const desk = restart(dir)
    // One ledger transaction for the whole funding: every payment carries the txid, none is half-written.
    expect(pays.map((p) => desk.ledger.get(p.localId)?.fundingTxId)).toEqual(pays.map(() => txid))
    expect(desk.attempts.all()[0]).toMatchObject({ state: 'broadcast', txid })
    h.chain.mine()
    expect((await desk.pay.recover()).map((a) => a.txid)).toEqual([txid])
    desk.close()
    expectFundedOnce(dir, pays, txid)
  }, 60_000)
})
