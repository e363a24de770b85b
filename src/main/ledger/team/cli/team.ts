/**
 * The owner's day-to-day commands on the team database: `status`, `threshold`, `rate`. Changes go through the
 * owner-only functions of migration 14, which say whether anything changed; the audit chain records each change.
 */
import type pg from 'pg'
import { ENDPOINTS } from '../../../../shared/api-limits'
import { formatBRL, parseBRLToCents } from '../../../../shared/money'
import { describeSettingChange } from '../../../../shared/team-settings-changes'
import { schemaVersion } from '../../pg/migrate'
import { PG_LATEST_VERSION, SCHEMA } from '../../pg/schema'
import { readSettingChanges } from '../../pg/settings-changes'
import { listAnalysts } from './analysts'
import { CliError } from './errors'

type Client = Pick<pg.ClientBase, 'query'>

/** This session's encryption as the server sees it (pg_stat_ssl), e.g. "TLSv1.3". */
export async function sessionTls(c: Client): Promise<string | null> {
  const r = await c.query('SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()')
  const row = r.rows[0]
  return row?.ssl === true ? String(row.version) : null
}

const thresholdText = (v: number | null): string => (v === null ? 'off' : `above ${formatBRL(v, 'en')}`)

async function readThreshold(c: Client): Promise<number | null> {
  const r = await c.query(`SELECT approval_above_cents::text AS v FROM ${SCHEMA}.team_settings WHERE id = 1`)
  const v = r.rows[0]?.v
  return v === null || v === undefined ? null : Number(v)
}

export async function status(c: Client, tlsNote: string): Promise<string> {
  const who = await c.query('SELECT session_user AS who, current_database() AS db, version() AS v')
  const w = who.rows[0] as { who: string; db: string; v: string }
  const tls = await sessionTls(c)
  const lines = [
    `connected as ${w.who} to ${w.db} — ${String(w.v).split(' on ')[0]}`,
    `TLS: ${tls ? `${tls}, ${tlsNote}` : 'none (a server on this computer)'}`,
  ]
  const v = await schemaVersion(c)
  lines.push(
    `team ledger schema v${v} (this tool: v${PG_LATEST_VERSION})` +
      (v < PG_LATEST_VERSION ? ' — run migrate' : v > PG_LATEST_VERSION ? ' — this tool is older' : ''),
  )
  if (v === 0) return lines.join('\n')
  await c.query(`SET search_path = ${SCHEMA}, pg_temp`)
  lines.push(`approval threshold: ${thresholdText(await readThreshold(c))}`)
  const rates = await c.query(`SELECT endpoint, per_minute FROM ${SCHEMA}.rate_buckets ORDER BY endpoint`)
  lines.push(
    `rate allowances (per minute, all desks): ${rates.rows.map((r) => `${String(r.endpoint)} ${String(r.per_minute)}`).join(', ')}`,
  )
  const analysts = await listAnalysts(c)
  lines.push(`analysts: ${analysts.length > 0 ? analysts.join(', ') : 'none'}`)
  const changes = await readSettingChanges(c, 10)
  if (changes.length > 0) {
    lines.push('latest changes:')
    for (const ch of changes) lines.push(`  ${ch.at}  ${describeSettingChange(ch, 'en')}`)
  }
  return lines.join('\n')
}

/**
 * "off", or an amount in reais written as the app's forms take it (pt-BR): 5000, 5.000,00, R$ 5.000. "12.5" or
 * "5000.00" is refused, not guessed: read the other way it is wrong by a factor of 100 or 1000.
 */
export function parseThreshold(text: string): number | null {
  if (text.trim().toLowerCase() === 'off') return null
  const cents = parseBRLToCents(text, 'pt-BR')
  if (cents === null) {
    throw new CliError(
      `"${text}" is not an amount in reais as 5000 or 5.000,00 (comma for centavos), or "off"`,
    )
  }
  return cents
}

export async function setThreshold(c: Client, text: string): Promise<string> {
  const cents = parseThreshold(text)
  const before = await readThreshold(c)
  const r = await c.query(`SELECT ${SCHEMA}.set_approval_threshold($1) AS changed`, [cents])
  return r.rows[0]?.changed === true
    ? `approval threshold: ${thresholdText(before)} → ${thresholdText(cents)} (recorded in the audit trail; open desks follow at once)`
    : `approval threshold already ${thresholdText(cents)}: no change`
}

export async function setRate(c: Client, endpoint: string, text: string): Promise<string> {
  if (!(ENDPOINTS as readonly string[]).includes(endpoint)) {
    throw new CliError(`unknown endpoint ${endpoint} (one of ${ENDPOINTS.join(', ')})`)
  }
  if (!/^\d{1,6}$/.test(text)) throw new CliError(`"${text}" is not a whole number of calls a minute`)
  const before = await c.query(`SELECT per_minute FROM ${SCHEMA}.rate_buckets WHERE endpoint = $1`, [
    endpoint,
  ])
  const r = await c.query(`SELECT ${SCHEMA}.set_rate_allowance($1, $2) AS changed`, [endpoint, Number(text)])
  return r.rows[0]?.changed === true
    ? `${endpoint} allowance: ${String(before.rows[0]?.per_minute)} → ${text} a minute for all desks (recorded in the audit trail)`
    : `${endpoint} allowance already ${text} a minute: no change`
}
