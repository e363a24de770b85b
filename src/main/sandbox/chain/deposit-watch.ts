/**
 * The sandbox DePix service watching its own deposit addresses on the sandbox chain (issue #27): each withdrawal's
 * deposit address is generated with a blinding key the sandbox keeps; when a block confirms an output to one of
 * them, the service unblinds it and, if it is the sandbox DePix asset, funds the withdrawal with that amount and
 * that txid — the same ±5% tolerance rule as `fundWithdrawal` (src/main/sandbox/withdrawals.ts), applied to the
 * unblinded amount. Amounts below a cent are dropped (1 cent = 10^6 units).
 */
import type { Withdrawals } from '../withdrawals'
import type { ChainBook } from './book'
import type { SandboxChain } from './chain'
import { SANDBOX_DEPIX } from './faucet'
import { Transaction } from 'liquidjs-lib'
import type { Faucet } from './faucet'
import { newKeyedAddress, regtestTwin } from './keys'

const UNITS_PER_CENT = 1_000_000n

/**
 * The service's own payouts on the chain: a top-up's delivery and a refund, in sandbox DePix to the address's
 * regtest twin (same script and blinding key). Null when the address cannot be paid (then the caller keeps its
 * made-up txid).
 */
export function chainPayout(faucet: Faucet): (address: string, cents: number) => string | null {
  return (address, cents) => {
    if (!Number.isSafeInteger(cents) || cents <= 0) return null
    try {
      return faucet.send([
        { address: regtestTwin(address), asset: SANDBOX_DEPIX, units: BigInt(cents) * UNITS_PER_CENT },
      ])
    } catch {
      return null
    }
  }
}

export function watchDeposits(chain: SandboxChain, book: ChainBook, withdrawals: Withdrawals): () => void {
  const byScript = new Map<string, string>()
  withdrawals.depositAddress = () => {
    const keyed = newKeyedAddress('liquid')
    book.addBlindingKey(keyed.script, keyed.blindingPrivateKey)
    return { address: keyed.address, register: (id) => byScript.set(keyed.script, id) }
  }
  const stop = chain.onBlock((block) => {
    for (const txid of block.txids) {
      const tx = Transaction.fromHex(chain.tx(txid)?.hex as string)
      tx.outs.forEach((o, vout) => {
        const withdrawalId = byScript.get(o.script.toString('hex'))
        if (withdrawalId === undefined) return
        const seen = book.output(txid, vout)
        if (!seen || seen.asset !== SANDBOX_DEPIX) return
        const cents = Number(seen.units / UNITS_PER_CENT)
        if (cents <= 0) return
        try {
          withdrawals.fund(withdrawalId, cents, txid)
        } catch {
          // Not awaiting funding any more (already funded, settled…): the real service would hold it for support.
        }
      })
    }
  })
  return () => {
    stop()
    withdrawals.depositAddress = null
  }
}
