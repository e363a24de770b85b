/**
 * The sandbox chain's faucet: pays L-BTC and the sandbox DePix asset to any regtest address in real Elements
 * transactions. Outputs to a confidential address are blinded (Pedersen commitments, asset generator, range proof
 * and surjection proof from secp256k1-zkp), exactly what a wallet must unblind; the faucet's own change and the
 * fee are explicit. Its reserve is the genesis transaction's explicit outputs to OP_TRUE, re-spent each time.
 *
 * Every payout is written to the chain's book (book.ts) with its unblinded amount: the sandbox's own account of
 * the chain, which LWK's view of a wallet must agree with.
 */
import { randomBytes } from 'node:crypto'
import secp256k1, { type Secp256k1ZKP } from '@vulpemventures/secp256k1-zkp'
import { address as laddress, confidential, networks, Transaction } from 'liquidjs-lib'
import type { ChainBook } from './book'
import type { SandboxChain } from './chain'
import { fromDisplay, sha256d } from './header'

/** Elements regtest's default policy asset (LWK's `Network.regtestDefault()`): L-BTC of the sandbox chain. */
export const SANDBOX_LBTC = '5ac9f65c0efcc4775e0baec4ec03abdde22473cd3cf33c0419ca290e0751b225'
/** The sandbox DePix asset: a fixed id, derived from a label so it is recognisably not mainnet DePix. */
export const SANDBOX_DEPIX = sha256d(Buffer.from('tesouraria-depix sandbox DePix v1')).toString('hex')

/** 21 million L-BTC and one billion DePix, in units (8 decimals). */
const RESERVE = { lbtc: 21_000_000n * 100_000_000n, depix: 1_000_000_000n * 100_000_000n }
/** A flat fee per faucet transaction, explicit, in L-BTC units. */
export const FAUCET_FEE = 250n
const OP_TRUE = Buffer.from([0x51])
/** Tiny values with 1–2 bit proofs fail in secp256k1-zkp's signer; 16 bits costs little. */
const MIN_PROOF_BITS = 16

export interface Payout {
  readonly address: string
  /** display hex of the asset id */
  readonly asset: string
  readonly units: bigint
}

interface Reserve {
  txid: string
  vout: number
  units: bigint
}

let zkpPromise: Promise<Secp256k1ZKP> | null = null
export function loadZkp(): Promise<Secp256k1ZKP> {
  zkpPromise ??= secp256k1()
  return zkpPromise
}

export function explicitValue(units: bigint): Buffer {
  const b = Buffer.alloc(9)
  b[0] = 0x01
  b.writeBigUInt64BE(units, 1)
  return b
}

const explicitAsset = (asset: string): Buffer => Buffer.concat([Buffer.from([0x01]), fromDisplay(asset)])

export class Faucet {
  /** Per asset, every reserve output the faucet has had, latest last: a reorg that drops the latest falls back. */
  private readonly reserves: Record<string, Reserve[]>
  private readonly conf: confidential.Confidential

  private constructor(
    private readonly chain: SandboxChain,
    private readonly book: ChainBook,
    private readonly zkp: Secp256k1ZKP,
  ) {
    this.conf = new confidential.Confidential(zkp as never)
    const tx = new Transaction()
    tx.version = 2
    tx.addInput(Buffer.alloc(32), 0xffffffff)
    tx.addOutput(OP_TRUE, explicitValue(RESERVE.lbtc), explicitAsset(SANDBOX_LBTC), Buffer.from([0]))
    tx.addOutput(OP_TRUE, explicitValue(RESERVE.depix), explicitAsset(SANDBOX_DEPIX), Buffer.from([0]))
    const txid = chain.addGenesis(tx.toHex())
    this.reserves = {
      [SANDBOX_LBTC]: [{ txid, vout: 0, units: RESERVE.lbtc }],
      [SANDBOX_DEPIX]: [{ txid, vout: 1, units: RESERVE.depix }],
    }
  }

  static async create(chain: SandboxChain, book: ChainBook): Promise<Faucet> {
    const zkp = await loadZkp()
    book.useZkp(zkp)
    return new Faucet(chain, book, zkp)
  }

  private reserve(asset: string): Reserve {
    const list = this.reserves[asset] as Reserve[]
    while (
      list.length > 1 &&
      !this.chain.isUnspent((list.at(-1) as Reserve).txid, (list.at(-1) as Reserve).vout)
    ) {
      list.pop()
    }
    return list.at(-1) as Reserve
  }

  /** One transaction paying every payout; returns its txid. The transaction waits in the mempool for a block. */
  send(payouts: readonly Payout[]): string {
    if (payouts.length === 0) throw new RangeError('nothing to pay')
    const need = new Map<string, bigint>([[SANDBOX_LBTC, FAUCET_FEE]])
    for (const p of payouts) {
      if (p.units <= 0n) throw new RangeError('a payout must be positive')
      if (!(p.asset in this.reserves)) throw new RangeError('unknown asset')
      need.set(p.asset, (need.get(p.asset) ?? 0n) + p.units)
    }
    const assets = [...need.keys()]
    for (const a of assets) {
      if (this.reserve(a).units < (need.get(a) as bigint)) throw new RangeError('faucet reserve short')
    }
    const tx = new Transaction()
    tx.version = 2
    for (const a of assets) {
      const r = this.reserve(a)
      tx.addInput(fromDisplay(r.txid), r.vout, 0xffffffff)
    }
    const inputTags = assets.map(fromDisplay)
    const zero = Buffer.alloc(32)
    const inputAbfs = assets.map(() => zero)
    const blinded = payouts.filter((p) => laddress.isConfidential(p.address))
    const outAbfs: Buffer[] = []
    const outVbfs: Buffer[] = []
    const outValues: string[] = []
    let blindedSeen = 0
    const book: { vout: number; script: string; asset: string; units: bigint }[] = []
    for (const p of payouts) {
      const script = laddress.toOutputScript(p.address, networks.regtest)
      const tag = fromDisplay(p.asset)
      let vout: number
      if (!laddress.isConfidential(p.address)) {
        vout = tx.addOutput(script, explicitValue(p.units), explicitAsset(p.asset), Buffer.from([0]))
      } else {
        blindedSeen += 1
        const { blindingKey } = laddress.fromConfidential(p.address)
        const abf = randomBytes(32)
        const last = blindedSeen === blinded.length
        // The last blinded output's value blinder balances the commitments (explicit inputs have zero blinders).
        const vbf = last
          ? this.conf.valueBlindingFactor(
              assets.map(() => '0'),
              [...outValues, p.units.toString()],
              inputAbfs,
              [...outAbfs, abf],
              assets.map(() => zero),
              outVbfs,
            )
          : randomBytes(32)
        const assetCommitment = this.conf.assetCommitment(tag, abf)
        const valueCommitment = this.conf.valueCommitment(p.units.toString(), assetCommitment, vbf)
        const ephemeral = randomBytes(32)
        const nonce = Buffer.from(this.zkp.ecc.pointFromScalar(ephemeral, true) as Uint8Array)
        const rangeProof = this.conf.rangeProofWithNonceHash(
          blindingKey,
          ephemeral,
          p.units.toString(),
          tag,
          valueCommitment,
          assetCommitment,
          vbf,
          abf,
          script,
          // The proof only has to cover the value: its cost grows with the bits (52 bits ≈ 2× the time of 26).
          '1',
          '0',
          String(Math.max(MIN_PROOF_BITS, p.units.toString(2).length)),
        )
        const surjectionProof = this.conf.surjectionProof(tag, abf, inputTags, inputAbfs, randomBytes(32))
        vout = tx.addOutput(script, valueCommitment, assetCommitment, nonce, rangeProof, surjectionProof)
        outAbfs.push(abf)
        outVbfs.push(vbf)
        outValues.push(p.units.toString())
      }
      book.push({ vout, script: script.toString('hex'), asset: p.asset, units: p.units })
    }
    const change = new Map<string, { vout: number; units: bigint }>()
    for (const a of assets) {
      const units = this.reserve(a).units - (need.get(a) as bigint)
      change.set(a, {
        vout: tx.addOutput(OP_TRUE, explicitValue(units), explicitAsset(a), Buffer.from([0])),
        units,
      })
    }
    tx.addOutput(Buffer.alloc(0), explicitValue(FAUCET_FEE), explicitAsset(SANDBOX_LBTC), Buffer.from([0]))
    const txid = this.chain.submit(tx.toHex())
    for (const [a, c] of change) this.reserves[a]?.push({ txid, ...c })
    for (const b of book) this.book.recordPayout({ txid, ...b })
    return txid
  }
}
