/**
 * Team profile (src/shared/team-ledger.ts) + the role's password from the vault → node-postgres settings. TLS
 * follows libpq's sslmode names: `verify-full` checks the chain and the host name, `verify-ca` the chain only,
 * `require` encrypts without checking (a server on a trusted network), `disable` only for a server on this
 * computer (the schema refuses it for any other host). The owner's command line (ledger/team/cli/) connects with
 * the same `tlsOptions` and `isLocalServer`, so a desk and the DBA's tool can never disagree on what TLS means.
 */
import net from 'node:net'
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

/**
 * Whether the server answers PostgreSQL's SSLRequest with "S" (it speaks TLS) or "N" (it does not). node-postgres
 * reports an "N" as a plain Error without a code, so this is how a server without TLS is told apart without
 * reading a message.
 */
export function serverOffersTls(host: string, port: number, timeoutMs: number): Promise<boolean | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port })
    let done = false
    const finish = (v: boolean | null): void => {
      if (done) return
      done = true
      socket.destroy()
      resolve(v)
    }
    socket.setTimeout(timeoutMs, () => finish(null))
    socket.on('error', () => finish(null))
    socket.on('close', () => finish(null))
    // Length 8, then the SSLRequest code 80877103 (protocol docs, "SSL Session Encryption").
    socket.on('connect', () => socket.write(Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])))
    socket.on('data', (b) => finish(b[0] === 0x53 ? true : b[0] === 0x4e ? false : null))
  })
}
