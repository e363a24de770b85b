/**
 * The built `team-ledger` tool (scripts/build-team-ledger.mjs) against a real PostgreSQL 15 serving TLS with a
 * private CA (issue #31): TLS the way the desks do it, passwords never on the command line, `setup` from nothing
 * and again, audited settings and analyst changes read back as the app shows them, and a backup restored into a
 * new database opened by a desk.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTeamLedger } from '../../../../../scripts/build-team-ledger.mjs'
import type { TeamDeps } from '../../../../../src/main/app/deps'
import { teamHandlers } from '../../../../../src/main/app/team-handlers'
import { openLedger } from '../../../../../src/main/ledger/sqlite'
import { openPgStore, type PgLedgerStore } from '../../../../../src/main/ledger/engines'
import { PG_LATEST_VERSION } from '../../../../../src/main/ledger/pg/schema'
import { probeTeamLedger } from '../../../../../src/main/profiles/team-probe'
import { describeSettingChange } from '../../../../../src/shared/team-settings-changes'
import {
  ADMIN_USER,
  PG_SKIP_REASON,
  announceSkip,
  pgTool,
  startCluster,
  type PgCluster,
} from '../../../../support/postgres'
import { OPENSSL_MISSING, makeCerts } from '../../../../support/tls-certs'

const skip = PG_SKIP_REASON ?? OPENSSL_MISSING
announceSkip('team-ledger cli')
if (OPENSSL_MISSING) console.warn(`[team-ledger cli] skipped: ${OPENSSL_MISSING}`)

let cluster: PgCluster
let dir: string
let script: string
let certs: { ca: string; otherCa: string }
const file = (name: string): string => path.join(dir, name)

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/** The built script with plain node and a clean environment (no PG* variables, an empty home). */
function cli(args: string[], env: Record<string, string> = {}, home = file('home')): Run {
  const r = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    input: '',
    timeout: 60_000,
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const at = (user: string, pw: string, host = 'localhost'): string[] => [
  '--host',
  host,
  '--port',
  String(cluster.port),
  '--user',
  user,
  '--password-file',
  file(pw),
]
const owner = (...args: string[]): string[] => [
  ...args,
  ...at('depix_owner', 'owner.pw'),
  '--ca',
  file('ca.crt'),
]
const admin = (...args: string[]): string[] => [
  ...args,
  ...at(ADMIN_USER, 'admin.pw'),
  '--ca',
  file('ca.crt'),
]

function ok(r: Run): string {
  expect(r.stderr, r.stderr).not.toMatch(/Warning|team-ledger:/)
  expect(r.status).toBe(0)
  return r.stdout
}

async function asRole(user: string, password: string, database = 'depix_team'): Promise<pg.Client> {
  const c = new pg.Client({
    host: 'localhost',
    port: cluster.port,
    user,
    password,
    database,
    ssl: { ca: certs.ca, servername: 'localhost' },
  })
  await c.connect()
  return c
}

beforeAll(async () => {
  if (skip) return
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-ledger-cli-'))
  const made = makeCerts(dir)
  certs = made
  fs.writeFileSync(file('ca.crt'), made.ca)
  fs.writeFileSync(file('other.crt'), made.otherCa)
  fs.mkdirSync(file('home'))
  cluster = await startCluster({ tls: { certPem: made.cert, keyPem: made.key } })
  const secrets = {
    'admin.pw': String(cluster.config().password),
    'owner.pw': 'owner-secret-0123456789',
    'ana.pw': 'ana-secret-0123456789',
    'bia.pw': 'bia-secret-0123456789',
  }
  for (const [name, pw] of Object.entries(secrets)) fs.writeFileSync(file(name), `${pw}\n`, { mode: 0o600 })
  script = await buildTeamLedger(file('built'))
}, 120_000)

afterAll(() => {
  cluster?.stop()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(skip)('team-ledger setup', () => {
  it('sets a team up from nothing: roles, database, schema, analysts, TLS check', async () => {
    const out = ok(
      cli(admin('setup', '--owner-password-file', file('owner.pw'), '--analyst', `ana=${file('ana.pw')}`)),
    )
    expect(out).toContain('TLS: this session is encrypted (TLSv1.3)')
    expect(out).toContain('role depix_owner created')
    expect(out).toContain('group role depix_analysts created')
    expect(out).toContain('database depix_team created')
    expect(out).toContain(`schema v0 → v${PG_LATEST_VERSION}`)
    expect(out).toContain('analyst ana: created')
    const ana = await asRole('ana', 'ana-secret-0123456789')
    try {
      const r = await ana.query(
        `SELECT pg_has_role('depix_analysts', 'MEMBER') AS member,
           (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl`,
      )
      expect(r.rows[0]).toMatchObject({ member: true, ssl: true })
    } finally {
      await ana.end()
    }
    // The database belongs to the owner, which also owns the schema and applied it.
    const db = await cluster.admin(
      `SELECT pg_get_userbyid(datdba) AS owner, has_database_privilege('public', 'depix_team', 'CONNECT') AS pub
       FROM pg_database WHERE datname = 'depix_team'`,
    )
    expect(db.rows[0]).toEqual({ owner: 'depix_owner', pub: false })
    const schema = await cluster.admin(
      `SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = 'ledger'`,
      [],
      'depix_team',
    )
    expect(schema.rows[0]?.owner).toBe('depix_owner')
  })

  it('changes nothing the second time, and says so', async () => {
    const count = async (): Promise<unknown> =>
      (
        await cluster.admin(
          `SELECT (SELECT count(*) FROM ledger.audit_log) AS audit,
             (SELECT count(*) FROM ledger.schema_version) AS versions`,
          [],
          'depix_team',
        )
      ).rows[0]
    const before = await count()
    const out = ok(cli(admin('setup', '--analyst', `ana=${file('ana.pw')}`)))
    expect(out).toContain('nothing changed: the team ledger was already set up')
    expect(out).toContain('analyst ana: already there')
    expect(out).toContain(`schema already at v${PG_LATEST_VERSION}`)
    expect(out).not.toMatch(/created|→/)
    expect(await count()).toEqual(before)
  })
  it('warns about pg_hba.conf lines that let the team database be reached without TLS or SCRAM', async () => {
    const hba = path.join(cluster.dir, 'data', 'pg_hba.conf')
    const original = fs.readFileSync(hba, 'utf8')
    fs.appendFileSync(
      hba,
      'host depix_team all 10.0.0.0/8 md5\nhostssl all all 192.168.0.0/16 scram-sha-256\n',
    )
    const line = original.split('\n').length
    await cluster.admin('SELECT pg_reload_conf()')
    try {
      const out = ok(cli(admin('setup')))
      expect(out).toContain(
        `warning: pg_hba.conf line ${line} (host 10.0.0.0 md5) lets depix_team be reached without TLS: use hostssl`,
      )
      expect(out).toContain(
        `warning: pg_hba.conf line ${line} (host 10.0.0.0 md5) does not use scram-sha-256`,
      )
      expect(out).not.toContain(`line ${line + 1}`)
      expect(out).toContain('nothing changed')
    } finally {
      fs.writeFileSync(hba, original)
      await cluster.admin('SELECT pg_reload_conf()')
    }
  })
})

describe.skipIf(skip)('team-ledger TLS, as the desks do it', () => {
  it('verifies the private CA given by --ca, by PGSSLROOTCERT and by ~/.postgresql/root.crt', () => {
    expect(ok(cli(owner('status')))).toContain(
      `TLS: TLSv1.3, certificate and host name verified against --ca ${file('ca.crt')}`,
    )
    const viaEnv = ok(cli(at('depix_owner', 'owner.pw').concat('status'), { PGSSLROOTCERT: file('ca.crt') }))
    expect(viaEnv).toContain(`certificate and host name verified against PGSSLROOTCERT=${file('ca.crt')}`)
    const home = file('home-with-root')
    fs.mkdirSync(path.join(home, '.postgresql'), { recursive: true })
    fs.copyFileSync(file('ca.crt'), path.join(home, '.postgresql', 'root.crt'))
    const viaHome = ok(cli(at('depix_owner', 'owner.pw').concat('status'), {}, home))
    expect(viaHome).toContain(`verified against ${path.join(home, '.postgresql', 'root.crt')}`)
  })

  it('refuses a wrong CA, and no CA at all (the system does not know the team CA)', () => {
    const wrong = cli(at('depix_owner', 'owner.pw').concat('status', '--ca', file('other.crt')))
    expect(wrong.status).toBe(1)
    expect(wrong.stderr).toMatch(/certificate/i)
    expect(wrong.stdout).toBe('')
    const none = cli(at('depix_owner', 'owner.pw').concat('status'))
    expect(none.status).toBe(1)
    expect(none.stderr).toMatch(/certificate/i)
  })

  it('gives each PGSSLMODE its libpq meaning', () => {
    // verify-full checks the host name: the certificate names localhost, not 127.0.0.1.
    const byIp = cli(at('depix_owner', 'owner.pw', '127.0.0.1').concat('status', '--ca', file('ca.crt')))
    expect(byIp.status).toBe(1)
    expect(byIp.stderr).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altname/i)
    const ca = ok(
      cli(
        at('depix_owner', 'owner.pw', '127.0.0.1').concat(
          'status',
          '--sslmode',
          'verify-ca',
          '--ca',
          file('ca.crt'),
        ),
      ),
    )
    expect(ca).toContain('TLS: TLSv1.3, certificate verified (host name not checked)')
    // require encrypts without verifying: even a wrong CA is not consulted.
    const req = ok(
      cli(at('depix_owner', 'owner.pw').concat('status', '--ca', file('other.crt')), {
        PGSSLMODE: 'require',
      }),
    )
    expect(req).toContain('TLS: TLSv1.3, encrypted, certificate NOT verified')
    // prefer encrypts when the server offers TLS (it does).
    expect(ok(cli(at('depix_owner', 'owner.pw').concat('status', '--sslmode', 'prefer')))).toContain(
      'TLS: TLSv1.3, encrypted',
    )
    // disable: plaintext, to a server on this computer only.
    expect(ok(cli(at('depix_owner', 'owner.pw').concat('status', '--sslmode', 'disable')))).toContain(
      'TLS: none (a server on this computer)',
    )
  })

  it('refuses plaintext to a server that is not on this computer, before connecting', () => {
    // db.example.com does not resolve here: the refusal comes first, without a lookup or a connection.
    const r = cli([
      'status',
      '--host',
      'db.example.com',
      '--sslmode',
      'disable',
      '--password-file',
      file('owner.pw'),
    ])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('refusing to connect to db.example.com without TLS')
  })

  it('never takes a password on the command line; reads PGPASSFILE or ~/.pgpass; asks only in a terminal', () => {
    const flag = cli(['status', '--password', 'x'])
    expect(flag.status).toBe(1)
    expect(flag.stderr).toMatch(/Unknown option '--password'/)
    const line = `localhost:${cluster.port}:depix_team:depix_owner:owner-secret-0123456789\n`
    fs.writeFileSync(file('pgpass'), line, { mode: 0o600 })
    const base = ['status', '--host', 'localhost', '--port', String(cluster.port), '--user', 'depix_owner']
    expect(ok(cli([...base, '--ca', file('ca.crt')], { PGPASSFILE: file('pgpass') }))).toContain(
      'connected as depix_owner',
    )
    const home = file('home-pgpass')
    fs.mkdirSync(home)
    fs.writeFileSync(path.join(home, '.pgpass'), line, { mode: 0o600 })
    expect(ok(cli([...base, '--ca', file('ca.crt')], {}, home))).toContain('connected as depix_owner')
    const none = cli([...base, '--ca', file('ca.crt')])
    expect(none.status).toBe(1)
    expect(none.stderr).toContain(
      'no password: give --password-file, a PGPASSFILE/.pgpass entry, or run in a terminal',
    )
  })
})

describe.skipIf(skip)('audited settings and analysts', () => {
  let store: PgLedgerStore
  beforeAll(async () => {
    if (skip) return
    store = await openPgStore({
      connection: {
        host: 'localhost',
        port: cluster.port,
        user: 'ana',
        password: 'ana-secret-0123456789',
        database: 'depix_team',
        ssl: { ca: certs.ca, servername: 'localhost' },
      },
    })
  })
  afterAll(async () => {
    await store?.close()
  })

  it('threshold and rate changes: one audited change each, a second run changes nothing', () => {
    expect(ok(cli(owner('threshold', '5.000,00')))).toContain('approval threshold: off → above R$5,000.00')
    expect(ok(cli(owner('threshold', '5000')))).toContain('already above R$5,000.00: no change')
    expect(ok(cli(owner('rate', 'withdraw', '6')))).toContain('withdraw allowance: 10 → 6 a minute')
    expect(ok(cli(owner('rate', 'withdraw', '6')))).toContain('no change')
    const over = cli(owner('rate', 'withdraw', '11'))
    expect(over.status).toBe(1)
    expect(over.stderr).toContain('the allowance for withdraw is 1 to 10 a minute')
    const bad = cli(owner('threshold', '12.5'))
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('is not an amount in reais')
  })

  it('analysts cannot call the settings functions', async () => {
    const ana = await asRole('ana', 'ana-secret-0123456789')
    try {
      for (const sql of [
        'SELECT ledger.set_approval_threshold(1)',
        `SELECT ledger.set_rate_allowance('withdraw', 10)`,
        `SELECT ledger.record_analyst_change('ana', 'absent')`,
      ]) {
        await expect(ana.query(sql)).rejects.toMatchObject({ code: '42501' })
      }
    } finally {
      await ana.end()
    }
  })

  it('adds and removes an analyst, ending their sessions; both audited', async () => {
    expect(ok(cli(admin('analyst', 'add', 'bia', '--new-password-file', file('bia.pw'))))).toContain(
      'analyst bia: created',
    )
    const bia = await asRole('bia', 'bia-secret-0123456789')
    bia.on('error', () => undefined)
    expect(ok(cli(admin('analyst', 'remove', 'bia')))).toContain(
      'analyst bia: removed (cannot log in; 1 open',
    )
    await expect(bia.query('SELECT 1')).rejects.toThrow()
    await expect(asRole('bia', 'bia-secret-0123456789')).rejects.toMatchObject({ code: '28000' })
    expect(ok(cli(admin('analyst', 'remove', 'bia')))).toContain('analyst bia: already removed')
    expect(ok(cli(admin('analyst', 'list')))).toBe('ana\n')
  })

  it('every change is in the team chain (who, when, before → after), the chain checks, the app shows it', async () => {
    // A DBA's plain UPDATE is recorded as well: the trigger is on the column.
    await cluster.admin('UPDATE ledger.team_settings SET approval_above_cents = 700000', [], 'depix_team')
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
    const deps = { runtime: () => ({ team: { pg: store }, teamBooks: null }) } as unknown as TeamDeps
    const changes = await teamHandlers(deps)['team:changes'](undefined as never)
    expect(changes.map((c) => ({ ...c, seq: 0, at: '' }))).toEqual([
      { seq: 0, at: '', by: ADMIN_USER, kind: 'threshold', before: 500000, after: 700000 },
      { seq: 0, at: '', by: ADMIN_USER, kind: 'analyst', role: 'bia', before: 'active', after: 'outside' },
      { seq: 0, at: '', by: ADMIN_USER, kind: 'analyst', role: 'bia', before: 'absent', after: 'active' },
      { seq: 0, at: '', by: 'depix_owner', kind: 'rate', endpoint: 'withdraw', before: '10', after: '6' },
      { seq: 0, at: '', by: 'depix_owner', kind: 'threshold', before: null, after: 500000 },
      { seq: 0, at: '', by: ADMIN_USER, kind: 'analyst', role: 'ana', before: 'absent', after: 'active' },
    ])
    for (const c of changes) expect(c.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(changes.map((c) => describeSettingChange(c, 'pt-BR')).slice(3)).toEqual([
      'depix_owner mudou a cota da equipe para pagamentos: 10 por minuto → 6 por minuto',
      'depix_owner mudou o limite de aprovação: sem aprovação → acima de R$ 5.000,00',
      `${ADMIN_USER} incluiu o analista ana: inexistente → ativo`,
    ])
    const status = ok(cli(owner('status')))
    expect(status).toContain('approval threshold: above R$7,000.00')
    expect(status).toContain(
      `${ADMIN_USER} changed the approval threshold: above R$5,000.00 → above R$7,000.00`,
    )
  })
})

describe.skipIf(skip)('analysts back, and passwords rotated', () => {
  it('brings a removed analyst back with her own password, and rotates it, sent hashed', async () => {
    expect(ok(cli(admin('analyst', 'add', 'bia')))).toBe('analyst bia: can work again (was outside)\n')
    await (await asRole('bia', 'bia-secret-0123456789')).end()
    const last = await cluster.admin(
      `SELECT operator, details FROM ledger.audit_log ORDER BY seq DESC LIMIT 1`,
      [],
      'depix_team',
    )
    expect(last.rows[0]).toEqual({
      operator: ADMIN_USER,
      details: '{"after":"active","before":"outside","role":"bia"}',
    })

    fs.writeFileSync(file('bia2.pw'), 'bia-rotated-0123456789\n', { mode: 0o600 })
    expect(ok(cli(admin('password', 'bia', '--new-password-file', file('bia2.pw'))))).toContain(
      'password of bia changed',
    )
    await expect(asRole('bia', 'bia-secret-0123456789')).rejects.toMatchObject({ code: '28P01' })
    // An analyst may rotate her own; the server keeps only the SCRAM verifier.
    fs.writeFileSync(file('bia3.pw'), 'bia-own-choice-0123456789\n', { mode: 0o600 })
    ok(
      cli([
        ...at('bia', 'bia2.pw'),
        '--ca',
        file('ca.crt'),
        'password',
        'bia',
        '--new-password-file',
        file('bia3.pw'),
      ]),
    )
    await (await asRole('bia', 'bia-own-choice-0123456789')).end()
    const stored = await cluster.admin(`SELECT rolpassword FROM pg_authid WHERE rolname = 'bia'`)
    expect(String(stored.rows[0]?.rolpassword)).toMatch(/^SCRAM-SHA-256\$4096:/)
  })
})

describe.skipIf(skip)('team-ledger import', () => {
  it('moves a closed desk ledger in with the built script (node:sqlite loaded lazily, no warning)', () => {
    const deskDir = file('desk')
    fs.mkdirSync(deskDir)
    const desk = openLedger(path.join(deskDir, 'ledger.sqlite'))
    desk.close()
    const r = cli([
      'import',
      path.join(deskDir, 'ledger.sqlite'),
      ...at('ana', 'ana.pw'),
      '--ca',
      file('ca.crt'),
    ])
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^origin \S+\npayments: 0 imported, 0 already there\n/)
  })
})

describe.skipIf(skip)('backup and restore', () => {
  it('a backup restored into a new database opens on a desk: chain intact, nothing after the backup', async () => {
    // As docs/TEAM-LEDGER.md says: the dump as the owner, the restore as a superuser, over verified TLS.
    const run = (tool: string, user: string, password: string, args: string[]): void => {
      const env = {
        ...process.env,
        PGPASSWORD: password,
        PGSSLMODE: 'verify-full',
        PGSSLROOTCERT: file('ca.crt'),
      }
      const conn = ['-h', 'localhost', '-p', String(cluster.port), '-U', user]
      const r = spawnSync(pgTool(tool), [...conn, ...args], { encoding: 'utf8', env })
      expect(r.stderr).toBe('')
      expect(r.status).toBe(0)
    }
    const superuser = String(cluster.config().password)
    const dump = file('team.dump')
    run('pg_dump', 'depix_owner', 'owner-secret-0123456789', ['-Fc', '-f', dump, 'depix_team'])
    const rows = Number(
      (await cluster.admin('SELECT count(*) AS n FROM ledger.audit_log', [], 'depix_team')).rows[0]?.n,
    )
    // After the backup: a change the restore will not have.
    ok(cli(owner('threshold', '9.000,00')))
    run('createdb', ADMIN_USER, superuser, [
      '-O',
      'depix_owner',
      '-T',
      'template0',
      '-E',
      'UTF8',
      'depix_restored',
    ])
    run('pg_restore', ADMIN_USER, superuser, ['--exit-on-error', '-d', 'depix_restored', dump])

    const settings = {
      host: 'localhost',
      port: cluster.port,
      database: 'depix_restored',
      role: 'ana',
      tls: 'verify-full' as const,
      caPem: certs.ca,
    }
    const probe = await probeTeamLedger(settings, 'ana-secret-0123456789')
    expect(probe).toMatchObject({ verdict: 'ok', identity: 'ana', approvalAboveCents: 700000 })
    const desk = await openPgStore({
      connection: {
        host: 'localhost',
        port: cluster.port,
        user: 'ana',
        password: 'ana-secret-0123456789',
        database: 'depix_restored',
        ssl: { ca: certs.ca, servername: 'localhost' },
      },
    })
    try {
      expect(await desk.verifyAuditChain()).toEqual({ ok: true, rows })
    } finally {
      await desk.close()
    }
    // An app older than the database's schema (as after `migrate` ran for a newer version) is refused.
    await cluster.admin(
      `SET ROLE depix_owner; INSERT INTO ledger.schema_version (version, name) VALUES (${PG_LATEST_VERSION + 1}, 'newer')`,
      [],
      'depix_restored',
    )
    expect(await probeTeamLedger(settings, 'ana-secret-0123456789')).toMatchObject({
      verdict: 'schema_too_new',
      schemaVersion: PG_LATEST_VERSION + 1,
    })
  })
})
