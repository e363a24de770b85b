/**
 * Labels of the treasury wallet's unmatched movements (issue #27): each is an entry of the ledger's hash-chained
 * audit log (who, when, what), so a label is audited like any other act and changing one adds an entry rather than
 * rewriting the last. The latest entry of a movement is its label. Subject `wallet-tx:<profile>:<txid>`: not a
 * record, so the chain check does not look for a record state behind it.
 */
import { z } from 'zod'
import { hasHiddenText } from '../../shared/visible-text'
import type { Ledger } from '../ledger/sqlite'

export const WALLET_LABEL_ACTION = 'wallet.movement.labelled'
export const MOVEMENT_LABEL_MAX = 120

export interface MovementLabel {
  readonly text: string
  readonly by: string
  /** ISO time of the audit entry */
  readonly at: string
}

const txidSchema = z.string().regex(/^[0-9a-f]{64}$/)
/** What a person may write: one line, visible characters only (no bidi or zero-width tricks), bounded. */
export const movementLabelTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(MOVEMENT_LABEL_MAX)
  .refine((s) => !hasHiddenText(s))

const detailsSchema = z.object({
  profile: z.string(),
  txid: txidSchema,
  label: z.string().max(MOVEMENT_LABEL_MAX),
})
const rowSchema = z.object({ at: z.string(), operator: z.string(), details: z.string() })

const subjectOf = (profileId: string, txid: string): string => `wallet-tx:${profileId}:${txid}`

export function labelMovement(
  ledger: Ledger,
  o: { profileId: string; txid: string; label: string; operator: string },
): MovementLabel {
  const txid = txidSchema.parse(o.txid)
  const label = movementLabelTextSchema.parse(o.label)
  const e = ledger.appendAudit({
    operator: o.operator,
    action: WALLET_LABEL_ACTION,
    subject: subjectOf(o.profileId, txid),
    details: { profile: o.profileId, txid, label },
  })
  return { text: label, by: e.operator, at: e.at }
}

/** txid → its latest label, for one profile. Rows read back are checked; one that does not fit is skipped. */
export function movementLabels(ledger: Ledger, profileId: string): Map<string, MovementLabel> {
  const rows = ledger.read(({ stmt }) =>
    stmt(
      `SELECT at, operator, details FROM audit_log WHERE action = ? AND subject LIKE ? ESCAPE '\\' ORDER BY seq`,
    ).all(WALLET_LABEL_ACTION, `wallet-tx:${profileId.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`),
  )
  return labelsOfRows(rows, profileId)
}

/**
 * On a team, labels are the team's: entries of the team ledger's audit chain (through the store's `appendAudit`,
 * which every analyst may call), under one scope for every desk (each desk names its team profile its own way).
 */
export const TEAM_LABEL_SCOPE = 'team'

export async function labelTeamMovement(
  store: {
    appendAudit(e: {
      operator: string
      action: string
      subject: string
      details: Record<string, unknown>
    }): Promise<{ operator: string; at: string }>
  },
  o: { txid: string; label: string; operator: string },
): Promise<MovementLabel> {
  const txid = txidSchema.parse(o.txid)
  const label = movementLabelTextSchema.parse(o.label)
  const e = await store.appendAudit({
    operator: o.operator,
    action: WALLET_LABEL_ACTION,
    subject: subjectOf(TEAM_LABEL_SCOPE, txid),
    details: { profile: TEAM_LABEL_SCOPE, txid, label },
  })
  return { text: label, by: e.operator, at: e.at }
}

/** The team's labels, read from the team ledger's audit log (rows from a shared database: checked). */
export async function teamMovementLabels(db: {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>
}): Promise<Map<string, MovementLabel>> {
  const { rows } = await db.query(
    `SELECT at, operator, details FROM ledger.audit_log WHERE action = $1 AND subject LIKE $2 ORDER BY seq`,
    [WALLET_LABEL_ACTION, `wallet-tx:${TEAM_LABEL_SCOPE}:%`],
  )
  return labelsOfRows(rows, TEAM_LABEL_SCOPE)
}

function labelsOfRows(rows: readonly unknown[], profileId: string): Map<string, MovementLabel> {
  const out = new Map<string, MovementLabel>()
  for (const raw of rows) {
    const row = rowSchema.safeParse(raw)
    if (!row.success) continue
    let details: unknown
    try {
      details = JSON.parse(row.data.details)
    } catch {
      continue
    }
    const d = detailsSchema.safeParse(details)
    if (!d.success || d.data.profile !== profileId) continue
    out.set(d.data.txid, { text: d.data.label, by: row.data.operator, at: row.data.at })
  }
  return out
}
