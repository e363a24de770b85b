/**
 * Paying from the wallet benchmark (issue #28): one PSET paying 200 payments, on the sandbox Liquid chain over
 * loopback Esplora, with a real SQLite ledger and the real withdrawal service (status answers from a file).
 * Measures (a) building and reviewing the 200-output PSET — LWK's TxBuilder, blinding, PsetDetails and our review
 * (the fresh status reads and the wallet scan before it are reported apart), target ≤ 2 s; (b) broadcast to
 * recorded — POST /tx and markFunded on 200 records, target ≤ 1 s. Signing (LWK's software Signer) is reported.
 *
 *   npx tsx bench/pay-wallet.bench.ts        (BENCH_PAY_OUTPUTS=50 for a quick run)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChainBook } from '../src/main/sandbox/chain/book'
import { SandboxChain } from '../src/main/sandbox/chain/chain'
import { startEsplora } from '../src/main/sandbox/chain/esplora'
import { Faucet } from '../src/main/sandbox/chain/faucet'
import { newKeyedAddress } from '../src/main/sandbox/chain/keys'
import { buildPayment } from '../src/main/wallet/pay/build'
import { lineFor } from '../src/main/wallet/pay/lines'
import { mnemonicWords, singlesigRegtest } from '../test/main/wallet/fixtures'
import { ASSETS, openDesk, seedPayment, writeAnswers, type Answers } from '../test/main/wallet/pay/desk'

const OUTPUTS = Number(process.env['BENCH_PAY_OUTPUTS'] ?? 200)
const UNITS = 1_000_000n
const SEED = 90

export async function run(): Promise<unknown> {
  const now = Date.now()
  const chain = new SandboxChain(() => now)
  const book = new ChainBook(chain)
  const faucet = await Faucet.create(chain, book)
  const esplora = await startEsplora(chain)
  const dir = mkdtempSync(join(tmpdir(), 'bench-pay-'))
  const desk = openDesk({
    dir,
    esploraUrl: esplora.url,
    descriptor: singlesigRegtest(SEED),
    now: () => now,
    sandboxMnemonic: mnemonicWords(SEED),
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
    const buildMs: number[] = []
    for (let i = 0; i < 3; i++) {
      const t = performance.now()
      buildPayment(desk.wallet, lines, ASSETS)
      buildMs.push(performance.now() - t)
    }
    // The whole flow once: scan + 200 status reads + build + review, sign, broadcast to recorded.
    let t = performance.now()
    const built = await desk.pay.build(ids.map((localId) => ({ localId })))
    const flowBuildMs = performance.now() - t
    t = performance.now()
    desk.pay.signWithSandbox(built.attempt.id)
    const signMs = performance.now() - t
    t = performance.now()
    const done = await desk.pay.broadcast(built.attempt.id)
    const broadcastToRecordedMs = performance.now() - t
    if (done.state !== 'recorded') throw new Error('not recorded')
    const txBytes = (chain.tx(built.review.txid)?.hex.length ?? 0) / 2
    const result = {
      outputs: OUTPUTS,
      buildAndReviewMs: buildMs.map(Math.round),
      flowBuildWithScanAndStatusMs: Math.round(flowBuildMs),
      signMs: Math.round(signMs),
      broadcastToRecordedMs: Math.round(broadcastToRecordedMs),
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
