/**
 * Funding seen, not declared (issue #27): a payment waiting for its deposit whose deposit address received exactly
 * its DePix in a transaction of the treasury wallet is recorded funded with that txid, through the withdrawal
 * service's `markFunded` (the transition "Marquei como enviado" uses: ledger, audit, tracker), plus one audit entry
 * saying the wallet saw it. Funding from anywhere else is not seen here and keeps the manual mark.
 *
 * "Exactly": a watch-only wallet cannot unblind the outputs it pays to others, but it knows how much DePix left it
 * (LWK's net of the transaction). A transaction counts when the DePix that left the wallet equals the sum of the
 * deposit amounts of the waiting payments whose addresses it pays (one payment, or a whole wave in one
 * transaction). Anything else (less, more, an extra recipient) is left to the person (docs/WALLET.md).
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { scriptOfAddress } from './meanings'
import type { WalletMovement } from './watch'

export const FUNDING_SEEN_ACTION = 'wallet.funding.seen'
const UNITS_PER_CENT = 1_000_000n

export interface SeenFunding {
  readonly localId: string
  readonly txid: string
  /** false while the transaction has no block yet */
  readonly confirmed: boolean
}

type Waiting = Pick<
  WithdrawalRecord,
  'localId' | 'localState' | 'depositAddress' | 'depositAmountCents' | 'fundingTxId'
>

/**
 * The waiting payments (created, no funding txid yet) the wallet's movements fund exactly, each with the first
 * transaction that did (confirmed ones by height, then unconfirmed ones).
 */
export function fundingsSeen(
  movements: readonly WalletMovement[],
  depixAsset: string,
  records: readonly Waiting[],
): SeenFunding[] {
  const byScript = new Map<string, { localId: string; units: bigint }>()
  for (const r of records) {
    if (r.localState !== 'created' || r.fundingTxId !== null || r.depositAddress === null) continue
    const cents = r.depositAmountCents
    if (cents === null || !Number.isSafeInteger(cents) || cents <= 0) continue
    const script = scriptOfAddress(r.depositAddress)
    if (script !== null) byScript.set(script, { localId: r.localId, units: BigInt(cents) * UNITS_PER_CENT })
  }
  if (byScript.size === 0) return []
  const ordered = movements
    .slice()
    .sort(
      (a, b) =>
        (a.height ?? Number.MAX_SAFE_INTEGER) - (b.height ?? Number.MAX_SAFE_INTEGER) ||
        a.txid.localeCompare(b.txid),
    )
  const seen = new Map<string, SeenFunding>()
  for (const m of ordered) {
    const left = -(m.net.get(depixAsset) ?? 0n)
    if (left <= 0n) continue
    const paid = new Map<string, bigint>()
    for (const s of m.outputScripts) {
      const p = byScript.get(s)
      if (p !== undefined) paid.set(p.localId, p.units)
    }
    if (paid.size === 0) continue
    let sum = 0n
    for (const units of paid.values()) sum += units
    if (sum !== left) continue
    for (const localId of paid.keys()) {
      if (!seen.has(localId)) seen.set(localId, { localId, txid: m.txid, confirmed: m.height !== null })
    }
  }
  return [...seen.values()]
}

export interface FundingSeenDeps {
  /** the profile's open records (the runtime's store: this computer's ledger or the team's) */
  readonly listOpen: () => Promise<readonly WithdrawalRecord[]>
  /** the withdrawal service's markFunded */
  readonly markFunded: (localId: string, txId: string) => Promise<unknown>
  readonly appendAudit: (entry: {
    operator: string
    action: string
    subject: string
    details: Record<string, unknown>
  }) => Promise<unknown>
  readonly operator: string
  readonly log: (line: string) => void
  /** A team ledger: every desk's records are the team's (each desk names its team profile its own way). */
  readonly everyProfile?: boolean
}

/**
 * Records the fundings the wallet's movements show for `profileId`. One failure does not stop the others; a
 * record another desk or the person marked meanwhile is refused by the ledger (or is a no-op) and skipped.
 */
export async function recordFundingsSeen(
  d: FundingSeenDeps,
  profileId: string,
  movements: readonly WalletMovement[],
  depixAsset: string,
): Promise<SeenFunding[]> {
  const open = (await d.listOpen()).filter((r) => d.everyProfile === true || r.profile === profileId)
  const done: SeenFunding[] = []
  for (const s of fundingsSeen(movements, depixAsset, open)) {
    try {
      await d.markFunded(s.localId, s.txid)
      await d.appendAudit({
        operator: d.operator,
        action: FUNDING_SEEN_ACTION,
        subject: `wallet-tx:${profileId}:${s.txid}`,
        details: { profile: profileId, txid: s.txid, localId: s.localId, confirmed: s.confirmed },
      })
      done.push(s)
    } catch (e) {
      d.log(`funding seen for ${s.localId} not recorded (${(e as Error).name})`)
    }
  }
  return done
}
