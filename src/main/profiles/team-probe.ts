/**
 * "Testar conexão" of the team ledger settings (issue #16): one connection with exactly what the runtime would use
 * (`teamConnection`), then the checks a desk needs before it may work on the team's record — the role is an
 * analyst, the schema is the one this app knows — and what the analyst should see (identity, schema version, the
 * approval threshold). Every failure is classified by the driver's error code or SQLSTATE, never by message text,
 * and `detail` is built from those codes only: a server's or driver's message could quote anything.
 */
import pg from 'pg'
import type { TeamTestResult, TeamTestVerdict } from '../../shared/channels-team'
import type { TeamLedgerSettings } from '../../shared/team-ledger'
import { serverOffersTls, teamConnection } from '../ledger/team/connection'
import { failureCode, failureDetail, verdictOfCode } from '../ledger/team/failure'
import { schemaVersion } from '../ledger/pg/migrate'
import { ANALYST_GROUP, PG_LATEST_VERSION, SCHEMA } from '../ledger/pg/schema'

export const TEAM_PROBE_TIMEOUT_MS = 5_000

function result(verdict: TeamTestVerdict, detail: string | null, o: Partial<TeamTestResult> = {}) {
  return { verdict, identity: null, schemaVersion: null, approvalAboveCents: null, detail, ...o }
}

async function connectFailure(e: unknown, s: TeamLedgerSettings, timeoutMs: number): Promise<TeamTestResult> {
  const code = failureCode(e)
  const known = verdictOfCode(code)
  if (known) return result(known, failureDetail(code))
  if (code === '' && s.tls !== 'disable') {
    // Short: after a connect timeout the analyst has already waited once.
    if ((await serverOffersTls(s.host, s.port, Math.min(timeoutMs, 2_000))) === false) {
      return result('tls_failed', 'server does not offer TLS (SSLRequest answered N)')
    }
  }
  // Network codes, class 08 (connection exception), 57P (shutdown, cannot connect now), 53300 (too many
  // connections) and anything else: the server cannot be used right now.
  return result(
    'unavailable',
    code === '' ? 'connection failed or timed out (no driver code)' : failureDetail(code),
  )
}

/** Connects once with `settings` and `password`; never throws, never saves anything. */
export async function probeTeamLedger(
  settings: TeamLedgerSettings,
  password: string,
  o: { timeoutMs?: number } = {},
): Promise<TeamTestResult> {
  const timeoutMs = o.timeoutMs ?? TEAM_PROBE_TIMEOUT_MS
  const client = new pg.Client({
    ...teamConnection(settings, password),
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
  })
  // A server that cuts the connection later must not become an uncaught 'error' event.
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (e) {
    await client.end().catch(() => undefined)
    return connectFailure(e, settings, timeoutMs)
  }
  let identity: string | null = null
  let version: number | null = null
  try {
    const who = await client.query<{ who: string; analyst: boolean | null }>(
      `SELECT session_user AS who,
         (SELECT pg_has_role(session_user, r.oid, 'MEMBER') FROM pg_roles r WHERE r.rolname = $1) AS analyst`,
      [ANALYST_GROUP],
    )
    identity = String(who.rows[0]?.who ?? '') || null
    if (who.rows[0]?.analyst !== true) {
      return result('permission_denied', `role is not a member of ${ANALYST_GROUP}`, { identity })
    }
    version = await schemaVersion(client)
    if (version > PG_LATEST_VERSION) {
      return result('schema_too_new', `schema v${version}, this app knows v${PG_LATEST_VERSION}`, {
        identity,
        schemaVersion: version,
      })
    }
    if (version < PG_LATEST_VERSION) {
      return result('schema_too_old', `schema v${version}, this app needs v${PG_LATEST_VERSION}`, {
        identity,
        schemaVersion: version,
      })
    }
    const t = await client.query<{ v: string | null }>(
      `SELECT approval_above_cents::text AS v FROM ${SCHEMA}.team_settings WHERE id = 1`,
    )
    const raw = t.rows[0]?.v ?? null
    const cents = raw === null ? null : Number(raw)
    return result('ok', null, {
      identity,
      schemaVersion: version,
      approvalAboveCents: cents !== null && Number.isSafeInteger(cents) ? cents : null,
    })
  } catch (e) {
    const code = failureCode(e)
    const verdict: TeamTestVerdict = code === '42501' ? 'permission_denied' : 'unavailable'
    return result(verdict, code ? failureDetail(code) : 'query failed (no driver code)', {
      identity,
      schemaVersion: version,
    })
  } finally {
    await client.end().catch(() => undefined)
  }
}
