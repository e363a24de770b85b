/**
 * How the owner's tool reaches the server: libpq's variables and meanings, the desks' TLS (connection.ts).
 *
 * - `--host/--port/--user/--db` or PGHOST, PGPORT, PGUSER, PGDATABASE (a host starting with "/" is a Unix socket
 *   directory, as in libpq).
 * - `--sslmode` or PGSSLMODE, default `verify-full` (libpq's default is `prefer`; a team ledger is never reached
 *   without TLS by accident). libpq's meanings: `verify-full` checks the chain and the host name, `verify-ca` the
 *   chain only, `require` encrypts without checking, `prefer` encrypts when the server offers TLS, `allow` tries
 *   without TLS first, `disable` never encrypts. Whatever the mode, a connection without TLS is made only to a
 *   server on this computer (loopback or Unix socket): for any other host, `disable` is refused, `prefer` without
 *   TLS on offer is refused, and `allow` goes straight to its encrypted attempt.
 * - `--ca FILE` or PGSSLROOTCERT (libpq's `system` means the system's authorities), else ~/.postgresql/root.crt
 *   when it exists (libpq's default file), else the system's authorities, as a desk without a pasted CA.
 * - the password: secrets.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { isLocalServer, serverOffersTls, tlsOptions, type TlsMode } from '../connection'
import { CliError } from './errors'
import { loginPassword, type Terminal } from './secrets'

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const
export type SslMode = (typeof SSL_MODES)[number]

export interface ConnectFlags {
  host?: string
  port?: string
  user?: string
  db?: string
  sslmode?: string
  ca?: string
  'password-file'?: string
}

export interface Target {
  host: string
  port: number
  user: string
  database: string
  sslmode: SslMode
  /** Where the CA came from, for the report ("--ca ca.crt"); null: the system's authorities. */
  caSource: string | null
  caPem: string | undefined
  passwordFile: string | undefined
}

function readCa(file: string, source: string): string {
  let pem: string
  try {
    pem = readFileSync(file, 'utf8')
  } catch {
    throw new CliError(`cannot read the CA certificate ${file} (${source})`)
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CliError(`${file} (${source}) is not a PEM certificate (-----BEGIN CERTIFICATE-----)`)
  }
  return pem
}

/** The connection target from flags, then libpq's environment variables, then defaults. */
export function resolveTarget(flags: ConnectFlags, env: NodeJS.ProcessEnv, defaultDb: string): Target {
  const host = flags.host ?? env.PGHOST ?? 'localhost'
  const portText = flags.port ?? env.PGPORT ?? '5432'
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new CliError(`invalid port ${portText}`)
  const sslmode = flags.sslmode ?? env.PGSSLMODE ?? 'verify-full'
  if (!(SSL_MODES as readonly string[]).includes(sslmode)) {
    throw new CliError(`unknown sslmode ${sslmode} (one of ${SSL_MODES.join(', ')})`)
  }
  const user = flags.user ?? env.PGUSER ?? os.userInfo().username
  let caSource: string | null = null
  let caPem: string | undefined
  if (flags.ca) {
    caSource = `--ca ${flags.ca}`
    caPem = readCa(flags.ca, '--ca')
  } else if (env.PGSSLROOTCERT && env.PGSSLROOTCERT !== 'system') {
    caSource = `PGSSLROOTCERT=${env.PGSSLROOTCERT}`
    caPem = readCa(env.PGSSLROOTCERT, 'PGSSLROOTCERT')
  } else if (!env.PGSSLROOTCERT) {
    const libpqDefault = path.join(os.homedir(), '.postgresql', 'root.crt')
    if (existsSync(libpqDefault)) {
      caSource = libpqDefault
      caPem = readCa(libpqDefault, 'libpq default')
    }
  }
  return {
    host,
    port,
    user,
    database: flags.db ?? env.PGDATABASE ?? defaultDb,
    sslmode: sslmode as SslMode,
    caSource,
    caPem,
    passwordFile: flags['password-file'],
  }
}

export const plaintextRefused = (host: string): CliError =>
  new CliError(
    `refusing to connect to ${host} without TLS: a connection without encryption is only for a server on this ` +
      `computer (localhost or a Unix socket). Use --sslmode verify-full (the default) with --ca for a private CA.`,
  )

/**
 * libpq's sslmode → what the driver does, under the rule that nothing leaves this computer unencrypted.
 * `offersTls` asks the server (SSLRequest) and is called only for `prefer`.
 */
export async function effectiveTls(
  mode: SslMode,
  host: string,
  offersTls: () => Promise<boolean | null>,
): Promise<TlsMode> {
  // libpq never uses TLS over a Unix socket.
  if (host.startsWith('/')) return 'disable'
  const local = isLocalServer(host)
  switch (mode) {
    case 'disable':
      if (!local) throw plaintextRefused(host)
      return 'disable'
    case 'allow':
      return local ? 'disable' : 'require'
    case 'prefer':
      if ((await offersTls()) === true) return 'require'
      if (!local) throw plaintextRefused(host)
      return 'disable'
    default:
      return mode
  }
}

/** node-postgres settings for `target`, connecting to `database` (default: the target's). */
export async function clientConfig(
  target: Target,
  env: NodeJS.ProcessEnv,
  o: { database?: string; terminal?: Terminal } = {},
): Promise<{ config: pg.ClientConfig; tlsMode: TlsMode }> {
  const database = o.database ?? target.database
  const tlsMode = await effectiveTls(target.sslmode, target.host, () =>
    serverOffersTls(target.host, target.port, 5_000),
  )
  const config: pg.ClientConfig = {
    host: target.host,
    port: target.port,
    user: target.user,
    database,
    ssl: tlsOptions(tlsMode, target.host, target.caPem),
    password: loginPassword(
      { passwordFile: target.passwordFile, env },
      { host: target.host, port: target.port, database, user: target.user },
      o.terminal,
    ),
    application_name: 'team-ledger',
    connectionTimeoutMillis: 10_000,
  }
  return { config, tlsMode }
}
