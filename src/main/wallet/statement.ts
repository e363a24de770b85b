/**
 * The treasury wallet's statement for a period (issue #27): the DePix balance at its start, every confirmed
 * movement in it with what it was (a payment's funding, a top-up's delivery, a refund, or unmatched with its
 * label), the balance at its end; and the reconciliation: each payment ↔ the outgoing transaction that funded it,
 * each top-up ↔ the incoming that delivered it. Amounts are exact on-chain units (BigInt) and cents of R$
 * (truncated toward zero, as in Caixa). Only confirmed movements count (a block time places them in a period);
 * pending ones are listed apart. The signed export writes it as records/wallet-statement.ts says.
 */
import type { MovementLabel } from './labels'
import { meaningOf, type MovementMeaning, type TxMeanings } from './meanings'
import type { WalletMovement } from './watch'

const UNITS_PER_CENT = 1_000_000n

export interface StatementLine {
  readonly txid: string
  readonly height: number
  /** ISO time of its block */
  readonly at: string
  readonly depixUnits: bigint
  readonly depixCents: number
  readonly meaning: MovementMeaning
  readonly localId: string | null
  readonly label: string | null
}

export interface Statement {
  /** the DePix asset id (display hex) the amounts are of */
  readonly depixAsset: string
  /** [from, to) in ms since the epoch */
  readonly from: number
  readonly to: number
  readonly openingUnits: bigint
  readonly closingUnits: bigint
  readonly openingCents: number
  readonly closingCents: number
  readonly lines: readonly StatementLine[]
  /** movements with no block yet: in no period until confirmed */
  readonly pendingTxids: readonly string[]
  readonly reconciliation: {
    /** payment localId ↔ the outgoing txid(s) that paid its deposit address */
    readonly payments: ReadonlyArray<{
      readonly localId: string
      readonly txid: string
      readonly depixUnits: bigint
    }>
    /** top-up localId ↔ the incoming txid that delivered it */
    readonly topups: ReadonlyArray<{
      readonly localId: string
      readonly txid: string
      readonly depixUnits: bigint
    }>
    /** refund (payment localId) ↔ the incoming txid */
    readonly refunds: ReadonlyArray<{
      readonly localId: string
      readonly txid: string
      readonly depixUnits: bigint
    }>
  }
}

const cents = (units: bigint): number => Number(units / UNITS_PER_CENT)

export function buildStatement(o: {
  readonly movements: readonly WalletMovement[]
  readonly depixAsset: string
  readonly meanings: TxMeanings
  readonly labels: ReadonlyMap<string, MovementLabel>
  readonly from: number
  readonly to: number
}): Statement {
  if (!Number.isSafeInteger(o.from) || !Number.isSafeInteger(o.to) || o.from > o.to) {
    throw new RangeError('statement period must be [from, to) with from <= to')
  }
  let opening = 0n
  const lines: StatementLine[] = []
  const pendingTxids: string[] = []
  const confirmed = o.movements
    .filter((m) => {
      if (m.height === null || m.timestamp === null) pendingTxids.push(m.txid)
      return m.height !== null && m.timestamp !== null
    })
    .slice()
    .sort((a, b) => (a.height as number) - (b.height as number) || a.txid.localeCompare(b.txid))
  for (const m of confirmed) {
    const ms = (m.timestamp as number) * 1000
    const units = m.net.get(o.depixAsset) ?? 0n
    if (ms < o.from) {
      opening += units
      continue
    }
    if (ms >= o.to) continue
    const { meaning, localId } = meaningOf(m, o.meanings)
    lines.push({
      txid: m.txid,
      height: m.height as number,
      at: new Date(ms).toISOString(),
      depixUnits: units,
      depixCents: cents(units),
      meaning,
      localId,
      label: meaning === 'other' ? (o.labels.get(m.txid)?.text ?? null) : null,
    })
  }
  const closing = lines.reduce((n, l) => n + l.depixUnits, opening)
  const pair = (kind: MovementMeaning) =>
    lines
      .filter((l) => l.meaning === kind && l.localId !== null)
      .map((l) => ({ localId: l.localId as string, txid: l.txid, depixUnits: l.depixUnits }))
  return {
    depixAsset: o.depixAsset,
    from: o.from,
    to: o.to,
    openingUnits: opening,
    closingUnits: closing,
    openingCents: cents(opening),
    closingCents: cents(closing),
    lines,
    pendingTxids,
    reconciliation: { payments: pair('payment'), topups: pair('topup'), refunds: pair('refund') },
  }
}
