/**
 * Team profile (src/shared/team-ledger.ts) + the role's password from the vault → node-postgres settings. TLS
 * follows libpq's sslmode names: `verify-full` checks the chain and the host name, `verify-ca` the chain only,
 * `require` encrypts without checking (a server on a trusted network), `disable` only for a server on this
 * computer (the schema refuses it for any other host). The owner's command line (ledger/team/cli/) connects with
 * the same `tlsOptions` and `isLocalServer`, so a desk and the DBA's tool can never disagree on what TLS means.
 */
import type pg from 'pg'
import {
  LOOPBACK_HOSTS,
  teamLedgerSettingsSchema,
  type TeamLedgerSettings,
} from '../../../shared/team-ledger'
import { LedgerError } from '../model/errors'

/** The TLS modes that reach the driver (libpq's `allow`/`prefer` are resolved to one of these first). */
export type TlsMode = 'disable' | 'require' | 'verify-ca' | 'verify-full'

/** A server on this computer: a loopback name or address, or a Unix socket directory (libpq: a path). */
export function isLocalServer(host: string): boolean {
  return (LOOPBACK_HOSTS as readonly string[]).includes(host) || host.startsWith('/')
}

/** node-postgres's `ssl` for a libpq sslmode; `ca` is a PEM (absent: the system's trusted authorities). */
export function tlsOptions(mode: TlsMode, host: string, ca?: string): pg.ClientConfig['ssl'] {
  if (mode === 'disable') return false
  if (mode === 'require') return { rejectUnauthorized: false }
  if (mode === 'verify-ca') return { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined }
  return { rejectUnauthorized: true, ca, servername: host }
}

export function teamConnection(settings: TeamLedgerSettings, password: string): pg.ClientConfig {
  const s = teamLedgerSettingsSchema.safeParse(settings)
  if (!s.success)
    throw new LedgerError('invalid_input', `team ledger settings: ${s.error.issues[0]?.message ?? 'invalid'}`)
  const t = s.data
  return {
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.role,
    password,
    ssl: tlsOptions(t.tls, t.host, t.caPem ?? undefined),
    application_name: 'tesouraria-depix',
  }
}
