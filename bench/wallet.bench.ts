/**
 * Treasury wallet benchmark (issue #27): LWK (lwk_wasm, unchanged) scanning the sandbox Liquid chain over
 * loopback Esplora — 1,000 blocks and 10,000 transactions, of which the wallet's are blinded receipts to fresh
 * addresses and spends LWK builds and signs; the rest are explicit-output noise (cheap to make, and Esplora's
 * per-address answers do not depend on them). Measures the first scan, an incremental scan after one more block
 * with one receipt, a scan with nothing new, and memory; and checks LWK against the sandbox's book.
 *
 *   npx tsx bench/wallet.bench.ts            (or BENCH_WALLET_BLOCKS=100 for a quick run)
 */
import { address as laddress } from 'liquidjs-lib'
import { ChainBook } from '../src/main/sandbox/chain/book'
import { SandboxChain } from '../src/main/sandbox/chain/chain'
import { startEsplora } from '../src/main/sandbox/chain/esplora'
import { Faucet, SANDBOX_DEPIX, SANDBOX_LBTC } from '../src/main/sandbox/chain/faucet'
import { newKeyedAddress } from '../src/main/sandbox/chain/keys'
import { loadLwk } from '../src/main/wallet/lwk'
import { WatchedWallet } from '../src/main/wallet/watch'

const BLOCKS = Number(process.env['BENCH_WALLET_BLOCKS'] ?? 1000)
const TXS_PER_BLOCK = 10
/** every block: one receipt to the wallet; every 10th block also one spend from it */
const DEPIX = 100_000_000n

const mb = (n: number): number => Math.round(n / 2 ** 20)

export async function run(): Promise<unknown> {
  const lwk = loadLwk()
  let now = Date.UTC(2026, 10, 27)
  const chain = new SandboxChain(() => now)
  const book = new ChainBook(chain)
  const faucet = await Faucet.create(chain, book)
  const esplora = await startEsplora(chain)
  const mnemonic = lwk.Mnemonic.fromEntropy(new Uint8Array(16).fill(42))
  const signer = new lwk.Signer(mnemonic, lwk.Network.regtestDefault())
  const descriptor = signer.wpkhSlip77Descriptor().toString()
  const builder = new WatchedWallet({ descriptor, network: 'regtest', stateFile: null, now: () => now })
  const noise = Array.from(
    { length: 50 },
    () => laddress.fromConfidential(newKeyedAddress().address).unconfidentialAddress,
  )
  const generationStarted = Date.now()
  let receipts = 0
  let spends = 0
  for (let b = 0; b < BLOCKS; b++) {
    now += 60_000
    let inBlock = 0
    faucet.send([
      { address: builder.address(receipts).address, asset: SANDBOX_DEPIX, units: 100n * DEPIX + BigInt(b) },
      ...(b % 50 === 0
        ? [{ address: builder.address(receipts).address, asset: SANDBOX_LBTC, units: 100_000n }]
        : []),
    ])
    receipts += 1
    inBlock += 1
    if (b % 10 === 9) {
      // The builder wallet needs its coins: a scan, then LWK builds, signs and finalizes one payment.
      await builder.scan(esplora.url)
      const to = newKeyedAddress()
      book.addBlindingKey(to.script, to.blindingPrivateKey)
      const pset = new lwk.TxBuilder(builder.lwkNetwork)
        .addRecipient(new lwk.Address(to.address), 7n * DEPIX, new lwk.AssetId(SANDBOX_DEPIX))
        .finish(builder.lwkWollet)
      chain.submit(builder.lwkWollet.finalize(signer.sign(pset)).extractTx().toString())
      spends += 1
      inBlock += 1
    }
    while (inBlock < TXS_PER_BLOCK) {
      faucet.send([
        { address: noise[(b + inBlock) % noise.length] as string, asset: SANDBOX_DEPIX, units: 1n },
      ])
      inBlock += 1
    }
    chain.mine()
  }
  const generationMs = Date.now() - generationStarted

  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  const wallet = new WatchedWallet({ descriptor, network: 'regtest', stateFile: null, now: () => now })
  esplora.requests.length = 0
  let t = performance.now()
  const first = await wallet.scan(esplora.url)
  const firstScanMs = Math.round(performance.now() - t)
  const firstScanRequests = esplora.requests.length
  const rssAfterFirst = process.memoryUsage().rss

  faucet.send([{ address: wallet.address().address, asset: SANDBOX_DEPIX, units: 5n * DEPIX }])
  chain.mine()
  esplora.requests.length = 0
  t = performance.now()
  const incremental = await wallet.scan(esplora.url)
  const incrementalScanMs = Math.round(performance.now() - t)
  const incrementalRequests = esplora.requests.length

  esplora.requests.length = 0
  t = performance.now()
  await wallet.scan(esplora.url)
  const idleScanMs = Math.round(performance.now() - t)
  const idleRequests = esplora.requests.length

  // Agreement with the book on the final state (every movement and balance).
  const scripts = wallet.scripts(receipts + 40)
  const txids = new Set<string>()
  for (const s of scripts) for (const row of chain.history(s)) txids.add(row.txid)
  const bookMoves = book.movements(scripts, txids)
  const bookDepix = bookMoves.reduce((sum, m) => sum + (m.net.get(SANDBOX_DEPIX) ?? 0n), 0n)
  const lwkDepix = incremental.balances.find((x) => x.asset === SANDBOX_DEPIX)?.confirmed ?? 0n
  const agree =
    bookDepix === lwkDepix &&
    bookMoves.length === incremental.movements.length &&
    bookMoves.every((m) => {
      const seen = incremental.movements.find((x) => x.txid === m.txid)
      return seen !== undefined && [...m.net].every(([a, u]) => seen.net.get(a) === u)
    })
  await esplora.close()
  return {
    blocks: chain.height,
    chainTransactions: chain.txCount,
    walletTransactions: incremental.movements.length,
    receipts,
    spends,
    generationMs,
    firstScanMs,
    firstScanRequests,
    firstScanFailure: first.lastFailure,
    incrementalScanMs,
    incrementalRequests,
    idleScanMs,
    idleRequests,
    rssBeforeScanMb: mb(rssBefore),
    rssAfterFirstScanMb: mb(rssAfterFirst),
    heapUsedMb: mb(process.memoryUsage().heapUsed),
    lwkAgreesWithBook: agree,
  }
}

if (process.argv[1]?.endsWith('wallet.bench.ts')) {
  void run().then((r) => {
    console.log(JSON.stringify(r, null, 2))
    // A disagreement with the book is a failure, not a number.
    if ((r as { lwkAgreesWithBook: boolean }).lwkAgreesWithBook !== true) process.exitCode = 1
  })
}
