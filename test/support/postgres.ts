/**
 * A throwaway PostgreSQL cluster for tests: initdb + pg_ctl on a temp dir, listening on a free loopback port only
 * (no Unix socket), password (SCRAM) authentication for every role. One cluster per test file (beforeAll), shared by
 * its tests; `stop()` removes it.
 *
 * initdb and postgres refuse to run as root. When the tests run as root (CI containers), the cluster is created and
 * run as an unprivileged system user (`postgres` if present, else `nobody`) through spawn's uid/gid, and its
 * directory is handed to that user.
 *
 * Without the binaries, `PG_SKIP_REASON` says why and the suites skip with that reason printed.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

function findBinary(name: string): string | null {
  // PG_BINDIR pins the directory (another PostgreSQL version, or a nonexistent one to see the skip path).
  const pinned = process.env.PG_BINDIR
  if (pinned) {
    const p = path.join(pinned, name)
    return fs.existsSync(p) ? fs.realpathSync(p) : null
  }
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/lib/postgresql/15/bin']
  // Debian keeps the server binaries under /usr/lib/postgresql/<major>/bin, off PATH.
  try {
    for (const v of fs.readdirSync('/usr/lib/postgresql').sort().reverse()) {
      dirs.push(`/usr/lib/postgresql/${v}/bin`)
    }
  } catch {
    // not Debian's layout
  }
  for (const d of dirs) {
    const p = path.join(d, name)
    // Resolved: Debian links initdb onto PATH, and pg_ctl and psql live beside the real file.
    if (d && fs.existsSync(p)) return fs.realpathSync(p)
  }
  return null
}

const INITDB = findBinary('initdb')
const PG_CTL = INITDB ? path.join(path.dirname(INITDB), 'pg_ctl') : null

/** Why the PostgreSQL tests cannot run here; null when they can. */
export const PG_SKIP_REASON: string | null =
  INITDB && PG_CTL && fs.existsSync(PG_CTL)
    ? null
    : 'PostgreSQL server binaries (initdb, pg_ctl) not found: install the "postgresql" package to run the team-ledger tests'

/** Prints the reason once per file, so a skip is never silent. */
export function announceSkip(suite: string): void {
  if (PG_SKIP_REASON) console.warn(`[${suite}] skipped: ${PG_SKIP_REASON}`)
}

interface RunAs {
  uid: number
  gid: number
}

function unprivilegedUser(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' })
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' })
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout), gid: Number(gid.stdout) }
  }
  throw new Error('running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as')
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      s.close(() => resolve(port))
    })
  })
}

export const ADMIN_USER = 'admin'

export interface PgCluster {
  readonly host: string
  readonly port: number
  readonly dir: string
  /** Connection settings for a role (the superuser by default) and database. */
  config(user?: string, password?: string, database?: string): pg.ClientConfig
  /** Runs SQL as the superuser on `database` (default `postgres`). */
  admin(sql: string, params?: unknown[], database?: string): Promise<pg.QueryResult>
  /** Creates a LOGIN role with a password, optionally member of a group role. */
  createLogin(name: string, password: string, inRole?: string): Promise<void>
  /** Runs a SQL file with psql as the superuser; `vars` become psql variables (-v name=value). */
  psqlFile(file: string, vars?: Record<string, string>, database?: string): string
  /** pg_ctl stop -m fast (connections are cut) and start again on the same port. */
  restart(): Promise<void>
  stopServer(): void
  startServer(): void
  /** Stops the server and removes the cluster directory. */
  stop(): void
}

export interface ClusterOptions {
  /** Durable commits (fsync on) for benchmarks; tests run with fsync off. */
  durable?: boolean
  /** Serve TLS with this certificate and key (PEM); plain connections stay allowed. */
  tls?: { certPem: string; keyPem: string }
}

export async function startCluster(o: ClusterOptions = {}): Promise<PgCluster> {
  if (PG_SKIP_REASON || !INITDB || !PG_CTL) throw new Error(PG_SKIP_REASON ?? 'no PostgreSQL')
  const runAs = unprivilegedUser()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-test-'))
  fs.chmodSync(dir, 0o700)
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid)
  const data = path.join(dir, 'data')
  const pwfile = path.join(dir, 'pw')
  const password = `pw-${process.pid}-${Date.now()}`
  fs.writeFileSync(pwfile, password, { mode: 0o600 })
  if (runAs) fs.chownSync(pwfile, runAs.uid, runAs.gid)
  const opts = { cwd: dir, encoding: 'utf8' as const, ...(runAs ?? {}), env: { ...process.env, LC_ALL: 'C' } }
  const init = spawnSync(
    INITDB,
    [
      '-D',
      data,
      '-U',
      ADMIN_USER,
      `--pwfile=${pwfile}`,
      '-A',
      'scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ],
    opts,
  )
  fs.rmSync(pwfile, { force: true })
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`)
  }
  const port = await freePort()
  const conf = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = ''`,
    `fsync = ${o.durable ? 'on' : 'off'}`,
    `synchronous_commit = ${o.durable ? 'on' : 'off'}`,
    `full_page_writes = ${o.durable ? 'on' : 'off'}`,
    `max_connections = 120`,
    `shared_buffers = 128MB`,
    `log_min_messages = warning`,
  ]
  if (o.tls) {
    for (const [name, pem] of [
      ['server.crt', o.tls.certPem],
      ['server.key', o.tls.keyPem],
    ] as const) {
      const f = path.join(data, name)
      fs.writeFileSync(f, pem, { mode: 0o600 })
      if (runAs) fs.chownSync(f, runAs.uid, runAs.gid)
    }
    conf.push(`ssl = on`)
  }
  fs.appendFileSync(path.join(data, 'postgresql.conf'), `\n${conf.join('\n')}\n`)
  const log = path.join(dir, 'server.log')
  const ctl = (args: string[]): void => {
    const r = spawnSync(PG_CTL, ['-D', data, '-l', log, ...args], { ...opts, timeout: 60_000 })
    if (r.status !== 0) {
      let tail = ''
      try {
        tail = fs.readFileSync(log, 'utf8').slice(-2000)
      } catch {
        // no log yet
      }
      throw new Error(`pg_ctl ${args[0]} failed: ${r.stderr || r.stdout}\n${tail}`)
    }
  }
  const startServer = (): void => ctl(['start', '-w', '-t', '60'])
  const stopServer = (): void => ctl(['stop', '-m', 'fast', '-w', '-t', '60'])
  startServer()

  const host = '127.0.0.1'
  const config = (user = ADMIN_USER, pw = password, database = 'postgres'): pg.ClientConfig => ({
    host,
    port,
    user,
    password: pw,
    database,
  })
  const admin = async (
    sql: string,
    params: unknown[] = [],
    database = 'postgres',
  ): Promise<pg.QueryResult> => {
    const c = new pg.Client(config(ADMIN_USER, password, database))
    await c.connect()
    try {
      return await c.query(sql, params)
    } finally {
      await c.end()
    }
  }
  let stopped = false
  return {
    host,
    port,
    dir,
    config,
    admin,
    createLogin: async (name, pw, inRole) => {
      const ident = pg.escapeIdentifier(name)
      await admin(`CREATE ROLE ${ident} LOGIN PASSWORD ${pg.escapeLiteral(pw)}`)
      if (inRole) await admin(`GRANT ${pg.escapeIdentifier(inRole)} TO ${ident}`)
    },
    psqlFile: (file, vars = {}, database = 'postgres') => {
      const psql = path.join(path.dirname(INITDB), 'psql')
      const args = ['-X', '-q', '-h', host, '-p', String(port), '-U', ADMIN_USER, '-d', database, '-f', file]
      for (const [k, v] of Object.entries(vars)) args.push('-v', `${k}=${v}`)
      const r = spawnSync(psql, args, { encoding: 'utf8', env: { ...process.env, PGPASSWORD: password } })
      if (r.status !== 0)
        throw new Error(`psql ${path.basename(file)} failed: ${r.stderr || String(r.error)}`)
      return r.stdout
    },
    restart: async () => {
      stopServer()
      startServer()
      // pg_ctl ran synchronously: let clients see their connections' end before the test goes on, as a live
      // app's event loop would have while the server was down.
      await new Promise((r) => setTimeout(r, 100))
    },
    stopServer,
    startServer,
    stop: () => {
      if (stopped) return
      stopped = true
      try {
        ctl(['stop', '-m', 'immediate', '-w', '-t', '30'])
      } catch {
        // already stopped
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** A PostgreSQL client program (pg_dump, pg_restore, psql) of the same installation as the server binaries. */
export function pgTool(name: string): string {
  if (!INITDB) throw new Error(PG_SKIP_REASON ?? 'no PostgreSQL')
  return path.join(path.dirname(INITDB), name)
}
