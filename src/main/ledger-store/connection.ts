/**
 * Team profile (src/shared/team-ledger.ts) + the role's password from the vault → node-postgres settings. TLS
 * follows libpq's sslmode names: `verify-full` checks the chain and the host name, `verify-ca` the chain only,
 * `require` encrypts without checking (a server on a trusted network), `disable` only for loopback (the schema
 * refuses it for any other host).
 */
import type pg from 'pg'
import { teamLedgerSettingsSchema, type TeamLedgerSettings } from '../../shared/team-ledger'
import { LedgerError } from '../ledger'

export function teamConnection(settings: TeamLedgerSettings, password: string): pg.ClientConfig {
  const s = teamLedgerSettingsSchema.safeParse(settings)
  if (!s.success)
    throw new LedgerError('invalid_input', `team ledger settings: ${s.error.issues[0]?.message ?? 'invalid'}`)
  const t = s.data
  const ca = t.caPem ?? undefined
  const ssl: pg.ClientConfig['ssl'] =
    t.tls === 'disable'
      ? false
      : t.tls === 'require'
        ? { rejectUnauthorized: false }
        : t.tls === 'verify-ca'
          ? { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined }
          : { rejectUnauthorized: true, ca, servername: t.host }
  return {
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.role,
    password,
    ssl,
    application_name: 'tesouraria-depix',
  }
}
