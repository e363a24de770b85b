/** A sandbox chain with its book, faucet and Esplora over loopback, and a watched wallet whose signer we hold. */
import { ChainBook } from '../../../../src/main/sandbox/chain/book'
import { SandboxChain } from '../../../../src/main/sandbox/chain/chain'
import { startEsplora, type EsploraServer } from '../../../../src/main/sandbox/chain/esplora'
import { Faucet, SANDBOX_DEPIX, SANDBOX_LBTC } from '../../../../src/main/sandbox/chain/faucet'
import { newKeyedAddress, type KeyedAddress } from '../../../../src/main/sandbox/chain/keys'
import { loadLwk } from '../../../../src/main/wallet/lwk'
import { WatchedWallet, type WalletSnapshot } from '../../../../src/main/wallet/watch'
import { regtestSigner } from '../../wallet/fixtures'

export interface Harness {
  chain: SandboxChain
  book: ChainBook
  faucet: Faucet
  esplora: EsploraServer
  clockMs: { now: number }
  close(): Promise<void>
}

export async function startHarness(): Promise<Harness> {
  const clockMs = { now: Date.UTC(2026, 10, 27, 12) }
  const chain = new SandboxChain(() => clockMs.now)
  const book = new ChainBook(chain)
  const faucet = await Faucet.create(chain, book)
  const esplora = await startEsplora(chain)
  return { chain, book, faucet, esplora, clockMs, close: () => esplora.close() }
}

export function openWallet(h: Harness, descriptor: string, stateFile: string | null = null): WatchedWallet {
  return new WatchedWallet({ descriptor, network: 'regtest', stateFile, now: () => h.clockMs.now })
}

/** Pays `units` of `asset` from the wallet to `to` (default a fresh service-like address; the book holds its blinding key). */
export function spend(
  h: Harness,
  wallet: WatchedWallet,
  signerSeed: number,
  asset: string,
  units: bigint,
  to: KeyedAddress = newKeyedAddress(),
): string {
  const lwk = loadLwk()
  h.book.addBlindingKey(to.script, to.blindingPrivateKey)
  const builder = new lwk.TxBuilder(wallet.lwkNetwork)
  const pset = (
    asset === SANDBOX_LBTC
      ? builder.addLbtcRecipient(new lwk.Address(to.address), units)
      : builder.addRecipient(new lwk.Address(to.address), units, new lwk.AssetId(asset))
  ).finish(wallet.lwkWollet)
  const signed = regtestSigner(signerSeed).sign(pset)
  const final = wallet.lwkWollet.finalize(signed)
  return h.chain.submit(final.extractTx().toString())
}

/** The book's view of the wallet, in the snapshot's shape: balance per asset and net per txid. */
export function bookView(h: Harness, wallet: WatchedWallet, addresses: number) {
  const scripts = wallet.scripts(addresses)
  const txids = new Set<string>()
  for (const s of scripts) for (const row of h.chain.history(s)) txids.add(row.txid)
  const movements = h.book.movements(scripts, txids)
  const balance = new Map<string, bigint>()
  for (const m of movements) for (const [a, u] of m.net) balance.set(a, (balance.get(a) ?? 0n) + u)
  return {
    balance,
    movements: new Map(movements.map((m) => [m.txid, { height: m.height, net: m.net }])),
  }
}

export function lwkView(s: WalletSnapshot) {
  const balance = new Map<string, bigint>()
  for (const b of s.balances)
    if (b.confirmed + b.pending !== 0n) balance.set(b.asset, b.confirmed + b.pending)
  return {
    balance,
    movements: new Map(s.movements.map((m) => [m.txid, { height: m.height, net: new Map(m.net) }])),
  }
}

export { SANDBOX_DEPIX, SANDBOX_LBTC }
