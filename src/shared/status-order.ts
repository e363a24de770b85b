/**
 * Ordering of remote statuses, independent of the record kind: whether an observed status replaces the one a
 * record shows. Each kind (withdrawal-status.ts, deposit-status.ts) gives its own vocabulary — ranks, terminal
 * statuses, the terminal moves that are a normal end — and this one function decides, so the two kinds cannot
 * disagree on how out-of-order answers are handled.
 *
 * Pure: imported by main (ledger) and the renderer.
 */

export interface StatusPoint {
  status: string
  hasRefund: boolean
  /** ISO 8601 UTC; when we observed it. */
  at: string
}

export interface StatusDecision {
  /** Whether `next` becomes the current remote status. */
  replace: boolean
  /** Two different terminal statuses were reported for one record: worth a human look. */
  conflict: boolean
}

export interface StatusVocabulary {
  normalize(raw: string): string
  isKnown(normalized: string): boolean
  rank(normalized: string): number
  isTerminal(normalized: string, hasRefund: boolean): boolean
  /** `from>to` pairs of different terminal statuses that are a normal end, not a conflict. */
  normalTerminalMoves: ReadonlySet<string>
}

/**
 * - a terminal status is never replaced by a non-terminal one;
 * - between two known statuses, a higher rank replaces, a lower rank does not;
 * - when either status is unknown, the later observation replaces (our observations come from polling, whose
 *   order is the true order; rank says nothing about a status we do not know);
 * - equal rank: the later observation replaces, except that a terminal status never replaces a different
 *   terminal status of equal rank: the first stays and the disagreement is a conflict.
 */
export function decideByVocabulary(
  v: StatusVocabulary,
  current: StatusPoint | null,
  next: StatusPoint,
): StatusDecision {
  if (current === null) return { replace: true, conflict: false }
  const hasRefund = next.hasRefund || current.hasRefund
  const cur = v.normalize(current.status)
  const nxt = v.normalize(next.status)
  const curTerminal = v.isTerminal(cur, current.hasRefund)
  const nextTerminal = v.isTerminal(nxt, hasRefund)
  const conflict = curTerminal && nextTerminal && cur !== nxt && !v.normalTerminalMoves.has(`${cur}>${nxt}`)
  if (curTerminal && !nextTerminal) return { replace: false, conflict }
  if (!v.isKnown(cur) || !v.isKnown(nxt)) return { replace: next.at >= current.at, conflict }
  const rc = v.rank(cur)
  const rn = v.rank(nxt)
  if (rn !== rc) return { replace: rn > rc, conflict }
  if (curTerminal && nextTerminal && cur !== nxt) return { replace: false, conflict }
  return { replace: next.at >= current.at, conflict }
}
