/**
 * The sandbox's Liquid regtest chain, as the embedded sandbox runs it: chain, book, faucet, a block every
 * `BLOCK_SECONDS` of sandbox time (advancing the sandbox clock mines the blocks it skipped, up to a cap), and the
 * Sandbox profile's treasury wallet funded at start from a documented, sandbox-only mnemonic (docs/SANDBOX.md).
 * Its Esplora surface is served by the sandbox's HTTP server under `ESPLORA_PREFIX`.
 */
import { loadLwk } from '../../wallet/lwk'
import { ChainBook } from './book'
import { SandboxChain } from './chain'
import type { EsploraFault } from './esplora'
import { Faucet, SANDBOX_DEPIX, SANDBOX_LBTC } from './faucet'

export { ChainBook } from './book'
export { SandboxChain, ChainError } from './chain'
export { Faucet, SANDBOX_DEPIX, SANDBOX_LBTC } from './faucet'
export { handleEsplora, startEsplora, withFault, type EsploraFault, type EsploraServer } from './esplora'

export const ESPLORA_PREFIX = '/liquid/api'
export const BLOCK_SECONDS = 60
/** Advancing the clock by days must not mine tens of thousands of empty blocks in one go. */
const MAX_BLOCKS_PER_TICK = 100

/**
 * SANDBOX ONLY. The treasury wallet of the Sandbox profile (BIP39 of the first 16 bytes of
 * sha256("tesouraria-depix sandbox treasury (sandbox only)")), published in docs/SANDBOX.md so anyone can rebuild
 * it (LWK's CLI, Elements regtest). Public words: never use them for anything holding real money.
 */
export const SANDBOX_TREASURY_MNEMONIC =
  'blade cup judge vote giant legend print stand library neither dose flock'

/** What the Sandbox profile's treasury wallet holds at start: R$ 50.000,00 in DePix and 0.01 L-BTC for fees. */
export const SANDBOX_TREASURY_START = { depixUnits: 50_000n * 100_000_000n, lbtcUnits: 1_000_000n }

export interface SandboxLiquid {
  readonly chain: SandboxChain
  readonly book: ChainBook
  readonly faucet: Faucet
  /** Mines the blocks the sandbox clock says are due. Called by a timer and after a clock change. */
  mineDue(): number
  /** The Esplora surface's fault (down, slow, garbage, huge, a status), for tests of the wallet; null: none. */
  esploraFault: EsploraFault | null
}

/** The treasury's watch-only CT descriptor and its first receive address, derived by LWK from the mnemonic. */
let treasury: { descriptor: string; firstAddress: string } | null = null
export function sandboxTreasury(): { descriptor: string; firstAddress: string } {
  if (treasury !== null) return treasury
  const lwk = loadLwk()
  const network = lwk.Network.regtestDefault()
  const signer = new lwk.Signer(new lwk.Mnemonic(SANDBOX_TREASURY_MNEMONIC), network)
  const descriptor = signer.wpkhSlip77Descriptor()
  const text = descriptor.toString()
  const wollet = new lwk.Wollet(network, descriptor)
  const firstAddress = wollet.address(0).address().toString()
  wollet.free()
  signer.free()
  treasury = { descriptor: text, firstAddress }
  return treasury
}

export async function startLiquid(nowMs: () => number): Promise<SandboxLiquid> {
  const chain = new SandboxChain(nowMs)
  const book = new ChainBook(chain)
  const faucet = await Faucet.create(chain, book)
  chain.mine()
  // The Sandbox profile starts with a funded treasury (docs/SANDBOX.md).
  const { firstAddress } = sandboxTreasury()
  faucet.send([
    { address: firstAddress, asset: SANDBOX_DEPIX, units: SANDBOX_TREASURY_START.depixUnits },
    { address: firstAddress, asset: SANDBOX_LBTC, units: SANDBOX_TREASURY_START.lbtcUnits },
  ])
  chain.mine()
  let nextBlockAt = nowMs() + BLOCK_SECONDS * 1000
  return {
    chain,
    book,
    faucet,
    esploraFault: null,
    mineDue() {
      let mined = 0
      while (nowMs() >= nextBlockAt && mined < MAX_BLOCKS_PER_TICK) {
        chain.mine()
        mined += 1
        nextBlockAt += BLOCK_SECONDS * 1000
      }
      if (mined === MAX_BLOCKS_PER_TICK) nextBlockAt = nowMs() + BLOCK_SECONDS * 1000
      return mined
    },
  }
}
