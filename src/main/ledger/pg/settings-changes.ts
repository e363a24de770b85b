/**
 * The team's settings history (migration 14): approval threshold, rate allowances and analysts, read back from
 * the audit chain for Configurações and the owner's `team-ledger status`. Rows come from a shared database, so
 * each entry's details are parsed; an entry that does not parse is left out rather than shown wrong (the chain
 * check, not this list, is what tells that something was tampered with).
 */
import { z } from 'zod'
import { settingChangeSchema, type SettingChange } from '../../../shared/team-settings-changes'
import type { Queryable } from './queryable'
import { SETTINGS_AUDIT_ACTIONS } from './migrations/0014-settings-audit'

const digits = z.string().regex(/^\d{1,15}$/)
const perMinute = z.string().regex(/^\d{1,6}(\.\d+)?$/)
const ANALYST_STATES = ['absent', 'active', 'no_login', 'outside'] as const

const detailsOf = {
  'team.threshold_changed': z.object({ before: digits.nullable(), after: digits.nullable() }),
  'team.rate_changed': z.object({ endpoint: z.string().max(40), before: perMinute, after: perMinute }),
  'team.analyst_changed': z.object({
    role: z.string().max(63),
    before: z.enum(ANALYST_STATES),
    after: z.enum(ANALYST_STATES),
  }),
} as const

function toChange(row: Record<string, unknown>): SettingChange | null {
  let details: unknown
  try {
    details = JSON.parse(String(row.details))
  } catch {
    return null
  }
  const base = { seq: Number(row.seq), at: String(row.at), by: String(row.operator) }
  const action = String(row.action)
  let change: unknown = null
  if (action === 'team.threshold_changed') {
    const d = detailsOf[action].safeParse(details)
    if (d.success) {
      const cents = (v: string | null): number | null => (v === null ? null : Number(v))
      change = { ...base, kind: 'threshold', before: cents(d.data.before), after: cents(d.data.after) }
    }
  } else if (action === 'team.rate_changed') {
    const d = detailsOf[action].safeParse(details)
    if (d.success) change = { ...base, kind: 'rate', ...d.data }
  } else if (action === 'team.analyst_changed') {
    const d = detailsOf[action].safeParse(details)
    if (d.success) change = { ...base, kind: 'analyst', ...d.data }
  }
  const parsed = settingChangeSchema.safeParse(change)
  return parsed.success ? parsed.data : null
}

/** The latest changes, newest first. */
export async function readSettingChanges(c: Queryable, limit = 50): Promise<SettingChange[]> {
  const actions = SETTINGS_AUDIT_ACTIONS.map((a) => `'${a}'`).join(', ')
  const n = Math.min(Math.max(Math.trunc(limit), 1), 500)
  const r = await c.query(
    `SELECT seq, at, operator, action, details FROM audit_log WHERE action IN (${actions})
     ORDER BY seq DESC LIMIT ${n}`,
  )
  return r.rows.map(toChange).filter((x): x is SettingChange => x !== null)
}
