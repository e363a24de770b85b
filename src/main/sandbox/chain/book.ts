/**
 * The sandbox's own book of its chain, kept without LWK: every amount it paid (the faucet and the DePix service
 * record their payouts unblinded), every output it can unblind itself (addresses whose blinding keys the sandbox
 * generated, like the service's deposit addresses), and every explicit fee. A wallet's balance and movements are
 * then derived for a set of watched scripts, independently of the wallet software under test.
 */
import type { Secp256k1ZKP } from '@vulpemventures/secp256k1-zkp'
import { confidential, Transaction } from 'liquidjs-lib'
import type { SandboxChain } from './chain'
import { toDisplay } from './header'

export interface BookOutput {
  readonly txid: string
  readonly vout: number
  readonly script: string
  /** display hex */
  readonly asset: string
  readonly units: bigint
}

/** What a set of scripts did in one transaction, per asset: received minus spent (fees count as spent). */
export interface BookMovement {
  readonly txid: string
  readonly height: number | null
  readonly net: ReadonlyMap<string, bigint>
}

export class ChainBook {
  private readonly known = new Map<string, BookOutput>()
  private readonly blindingKeys = new Map<string, Buffer>()
  private conf: confidential.Confidential | null = null

  constructor(private readonly chain: SandboxChain) {}

  /** The zkp library for unblinding with the sandbox's own keys; the faucet loads the same instance. */
  useZkp(zkp: Secp256k1ZKP): void {
    this.conf = new confidential.Confidential(zkp as never)
  }

  recordPayout(o: BookOutput): void {
    this.known.set(`${o.txid}:${o.vout}`, o)
  }

  /** A blinding private key the sandbox holds (e.g. of a service deposit address), by script hex. */
  addBlindingKey(script: string, privateKey: Buffer): void {
    this.blindingKeys.set(script, privateKey)
  }

  /** An output's unblinded content, if the book knows it: recorded, explicit, or unblindable with its keys. */
  output(txid: string, vout: number): BookOutput | null {
    const recorded = this.known.get(`${txid}:${vout}`)
    if (recorded) return recorded
    const t = this.chain.tx(txid)
    if (!t) return null
    const out = Transaction.fromHex(t.hex).outs[vout]
    if (!out) return null
    const script = out.script.toString('hex')
    if (out.asset[0] === 0x01 && out.value[0] === 0x01) {
      return {
        txid,
        vout,
        script,
        asset: toDisplay(out.asset.subarray(1)),
        units: out.value.readBigUInt64BE(1),
      }
    }
    const key = this.blindingKeys.get(script)
    if (!key || !this.conf) return null
    try {
      const u = this.conf.unblindOutputWithKey(out, key)
      const o = { txid, vout, script, asset: toDisplay(Buffer.from(u.asset)), units: BigInt(u.value) }
      this.known.set(`${txid}:${vout}`, o)
      return o
    } catch {
      return null
    }
  }

  /**
   * Movements of a wallet given its scripts. A transaction spending from the wallet is charged with everything
   * it sends elsewhere plus its fee; it must be fully readable by the book, or this throws (the book never
   * guesses an amount).
   */
  movements(walletScripts: ReadonlySet<string>, txids: Iterable<string>): BookMovement[] {
    const rows: BookMovement[] = []
    for (const txid of txids) {
      const t = this.chain.tx(txid)
      if (!t) continue
      const tx = Transaction.fromHex(t.hex)
      const spendsOurs = tx.ins.some((i) => {
        const prevTxid = toDisplay(Buffer.from(i.hash))
        const prev = this.chain.tx(prevTxid)
        if (!prev) return false
        const o = Transaction.fromHex(prev.hex).outs[i.index]
        return o !== undefined && walletScripts.has(o.script.toString('hex'))
      })
      const net = new Map<string, bigint>()
      const add = (asset: string, units: bigint): void => {
        net.set(asset, (net.get(asset) ?? 0n) + units)
      }
      tx.outs.forEach((o, vout) => {
        const script = o.script.toString('hex')
        const ours = walletScripts.has(script)
        if (spendsOurs) {
          if (ours) return // change: not a movement
          const known = this.output(txid, vout)
          if (!known) throw new Error(`book cannot read output ${txid}:${vout}`)
          add(known.asset, -known.units) // includes the fee output (empty script)
        } else if (ours) {
          const known = this.output(txid, vout)
          if (!known) throw new Error(`book cannot read output ${txid}:${vout}`)
          add(known.asset, known.units)
        }
      })
      if (net.size > 0) rows.push({ txid, height: t.height, net })
    }
    return rows
  }
}
