/**
 * Paying from the wallet benchmark (issue #28): one PSET paying N payments (200 by default), on the sandbox Liquid
 * chain over loopback Esplora, with a real SQLite ledger and the real withdrawal service (status answers from a
 * file). Measures, wall clock and CPU time of this thread:
 *   (a) building and reviewing the N-output PSET (target ≤ 2 s), split into LWK's `TxBuilder.finish` and the
 *       review (LWK's `PsetDetails` + our checks); for comparison the same build with explicit (unblinded)
 *       outputs, which isolates what blinding costs per output;
 *   (b) broadcast to recorded: `POST /tx` and one `markFundedMany` for the N records (target ≤ 1 s).
 * Also printed: the build as the app runs it (LWK on its worker thread: how long main's event loop was busy), the
 * whole `build` with the wallet scan and the N status reads, the sandbox signing, and the check of the signed PSET
 * on import.
 *
 *   npx tsx bench/pay-wallet.bench.ts        (BENCH_PAY_OUTPUTS=50 for a quick run; BENCH_PAY_RUNS=1 to build once)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChainBook } from '../src/main/sandbox/chain/book'
import { SandboxChain } from '../src/main/sandbox/chain/chain'
import { startEsplora } from '../src/main/sandbox/chain/esplora'
import { Faucet } from '../src/main/sandbox/chain/faucet'
import { newKeyedAddress } from '../src/main/sandbox/chain/keys'
import { buildPayment, buildPaymentOffThread } from '../src/main/wallet/pay/build'
import { lineFor } from '../src/main/wallet/pay/lines'
import { reviewPset } from '../src/main/wallet/pay/review'
import { loadLwk } from '../src/main/wallet/lwk'
import { mnemonicWords, singlesigRegtest } from '../test/main/wallet/fixtures'
import { ASSETS, openDesk, seedPayment, writeAnswers, type Answers } from '../test/main/wallet/pay/desk'

const OUTPUTS = Number(process.env['BENCH_PAY_OUTPUTS'] ?? 200)
/** how many times the build + review alone is repeated (3 by default) */
const RUNS = Number(process.env['BENCH_PAY_RUNS'] ?? 3)
const UNITS = 1_000_000n
const SEED = 90

export async function run(): Promise<unknown> {
  const now = Date.now()
  const chain = new SandboxChain(() => now)
  const book = new ChainBook(chain)
  const faucet = await Faucet.create(chain, book)
  const esplora = await startEsplora(chain)
  const dir = mkdtempSync(join(tmpdir(), 'bench-pay-'))
  const stepsAt = new Map<string, number>()
  const desk = openDesk({
    dir,
    esploraUrl: esplora.url,
    descriptor: singlesigRegtest(SEED),
    now: () => now,
    sandboxMnemonic: mnemonicWords(SEED),
    step: (s) => stepsAt.set(s, performance.now()),
  })
  try {
    const to = desk.wallet.address().address
    faucet.send([
      { address: to, asset: ASSETS.depix, units: 10_000_000n * UNITS },
      { address: to, asset: ASSETS.lbtc, units: 10_000_000n },
    ])
    chain.mine()
    const answers: Answers = {}
    const ids = Array.from({ length: OUTPUTS }, (_, i) => {
      const cents = 1_000 + i
      const p = seedPayment(desk.ledger, cents)
      const a = newKeyedAddress()
      answers[p.remoteId] = {
        id: p.remoteId,
        status: 'unsent',
        pixKey: p.pixKey,
        depositAddress: a.address,
        depositAmountInCents: cents,
        expiration: new Date(now + 3_600_000).toISOString(),
      }
      return p.localId
    })
    writeAnswers(dir, answers)

    // (a) alone, several times: the pure build + review over a scanned wallet and fresh records.
    await desk.wallet.scan(esplora.url)
    const ctx = { network: 'regtest' as const, profile: 'sandbox', assetId: ASSETS.depix, now: () => now }
    const fresh = []
    for (const id of ids) fresh.push(await desk.withdrawals.refresh(id))
    const lines = fresh.map((r) => lineFor(ctx, r, { localId: r.localId }))
    const timed = <T>(fn: () => T): { value: T; ms: number; cpuMs: number } => {
      const c = process.cpuUsage()
      const t0 = performance.now()
      const value = fn()
      const ms = performance.now() - t0
      const cpu = process.cpuUsage(c)
      return { value, ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000) }
    }
    const lwk = loadLwk()
    const runs = []
    for (let i = 0; i < RUNS; i++) {
      const both = timed(() => buildPayment(desk.wallet, lines, ASSETS))
      const pset = new lwk.Pset(both.value.pset)
      const review = timed(() => reviewPset(desk.wallet, pset, lines, ASSETS))
      runs.push({
        buildAndReviewMs: both.ms,
        buildAndReviewCpuMs: both.cpuMs,
        reviewMs: review.ms,
        reviewCpuMs: review.cpuMs,
      })
    }
    // As the app builds: LWK on the worker (the TypeScript source through tsx here), main only checks and reviews.
    // How long main's event loop was busy meanwhile is what the window and IPC wait for.
    const elu = performance.eventLoopUtilization()
    const t0 = performance.now()
    await buildPaymentOffThread(
      desk.wallet,
      lines,
      ASSETS,
      join(__dirname, '../src/main/wallet/pay/build-worker.ts'),
    )
    const offThread = {
      ms: Math.round(performance.now() - t0),
      mainBusyMs: Math.round(performance.eventLoopUtilization(elu).active),
    }
    // The same recipients paid explicitly (no blinding): what LWK costs per output without range/surjection proofs.
    const asset = new lwk.AssetId(ASSETS.depix)
    const explicit = timed(() => {
      let b = new lwk.TxBuilder(desk.wallet.lwkNetwork)
      for (const l of lines) {
        const a = lwk.Address.parse(l.address, desk.wallet.lwkNetwork).toUnconfidential()
        b = b.addExplicitRecipient(a, l.units, asset)
      }
      return b.finish(desk.wallet.lwkWollet)
    })
    const finishCpu = runs.map((r) => r.buildAndReviewCpuMs - r.reviewCpuMs)
    const blindingMsPerOutput = (Math.min(...finishCpu) - explicit.cpuMs) / OUTPUTS
    // The whole flow once: scan + 200 status reads + build + review, sign, broadcast to recorded.
    let t = performance.now()
    const built = await desk.pay.build(ids.map((localId) => ({ localId })))
    const flowBuildMs = performance.now() - t
    const exported = desk.pay.exportPset(built.attempt.id)
    const signer = new lwk.Signer(new lwk.Mnemonic(mnemonicWords(SEED)), desk.wallet.lwkNetwork)
    const signing = timed(() => signer.sign(new lwk.Pset(exported)).toString())
    const imported = timed(() => desk.pay.importSigned(built.attempt.id, signing.value))
    t = performance.now()
    const cpu = process.cpuUsage()
    const done = await desk.pay.broadcast(built.attempt.id)
    const end = performance.now()
    const broadcastToRecordedMs = end - t
    const spent = process.cpuUsage(cpu)
    const broadcastToRecordedCpuMs = Math.round((spent.user + spent.system) / 1000)
    const at = (s: string): number => stepsAt.get(s) ?? Number.NaN
    // Where the time goes (the PayService's own step points): keeping the broadcast intent (attempts file with the
    // final transaction), the POST to the sandbox's Esplora (in this process: it parses and books the
    // transaction), the one ledger transaction, then the attempt marked recorded.
    const recordedSteps = {
      keepIntentMs: Math.round(at('before_broadcast') - t),
      postTxMs: Math.round(at('broadcast') - at('before_broadcast')),
      ledgerMs: Math.round(at('recording') - at('broadcast')),
      markRecordedMs: Math.round(end - at('recording')),
    }
    if (done.state !== 'recorded') throw new Error('not recorded')
    const txBytes = (chain.tx(built.review.txid)?.hex.length ?? 0) / 2
    const result = {
      outputs: OUTPUTS,
      runs,
      finishCpuMsPerOutput: Math.round(Math.min(...finishCpu) / OUTPUTS),
      offThread,
      explicitFinishMs: explicit.ms,
      explicitFinishCpuMs: explicit.cpuMs,
      blindingCpuMsPerOutput: Math.round(blindingMsPerOutput),
      flowBuildWithScanAndStatusMs: Math.round(flowBuildMs),
      sandboxSignMs: signing.ms,
      importCheckMs: imported.ms,
      broadcastToRecordedMs: Math.round(broadcastToRecordedMs),
      broadcastToRecordedCpuMs,
      recordedSteps,
      feeUnits: built.review.feeUnits.toString(),
      txBytes,
    }
    console.log(JSON.stringify(result, null, 1))
    return result
  } finally {
    desk.close()
    await esplora.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1]?.endsWith('pay-wallet.bench.ts')) void run()
