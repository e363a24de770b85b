/**
 * team:get / team:save / team:test / team:forget through the real router (real app context, embedded sandbox,
 * SQLite ledger) against a real PostgreSQL team set up by resources/team-ledger/setup.sql: each verdict of
 * "Testar conexão" is provoked for real, and neither a result, an event nor a log line ever holds the password.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { PG_LATEST_VERSION } from '../../../src/main/ledger/engines'
import { PG_MIGRATIONS } from '../../../src/main/ledger/pg/schema'
import { createJsonFileStore } from '../../../src/main/profiles'
import { probeTeamLedger } from '../../../src/main/profiles/team-probe'
import { createMemoryVault, teamLedgerSecretKey, type Vault } from '../../../src/main/secrets/vault'
import type { TeamTestResult } from '../../../src/shared/channels-team'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { TeamLedgerSettings } from '../../../src/shared/team-ledger'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { DATABASE, startTeam, type Team } from '../ledger/team'

announceSkip('team connection IPC (postgres)')

const PW = 'ana-pw'
let team: Team
let dataDir: string
let ctx: AppContext
let vault: Vault
const seen: string[] = []

interface Answer {
  ok: boolean
  data?: unknown
  error?: { code: string; fields?: Record<string, string> }
}

async function call(channel: string, input?: unknown): Promise<Answer> {
  const r = await ctx.router.handle(channel, input)
  seen.push(`${channel} ${JSON.stringify(r)}`)
  return r as Answer
}

async function test(settings: TeamLedgerSettings, password?: string): Promise<TeamTestResult> {
  const r = await call('team:test', { settings, ...(password === undefined ? {} : { password }) })
  expect(r.ok).toBe(true)
  return r.data as TeamTestResult
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

const settings = (o: Partial<TeamLedgerSettings> = {}): TeamLedgerSettings => ({
  host: '127.0.0.1',
  port: team.cluster.port,
  database: DATABASE,
  role: 'ana',
  tls: 'disable',
  caPem: null,
  ...o,
})

describe.skipIf(PG_SKIP_REASON !== null)('team connection channels', () => {
  beforeAll(async () => {
    team = await startTeam()
    await team.addAnalyst('ana')
    await team.addAnalyst('carlos', false)
    const owner = await team.owner()
    await owner.query('UPDATE ledger.team_settings SET approval_above_cents = 500000')
    dataDir = mkdtempSync(join(tmpdir(), 'team-conn-'))
    vault = createMemoryVault()
    ctx = await createAppContext({
      dataDir,
      vault,
      store: createJsonFileStore(join(dataDir, 'settings.json')),
      app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
      operator: 'tester',
      trackerAutoStart: false,
      log: (line) => seen.push(`log ${line}`),
      ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
    })
    ctx.onEvent((event, payload) => seen.push(`event ${event} ${JSON.stringify(payload)}`))
  }, 120_000)

  afterAll(async () => {
    await ctx?.close()
    await team?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('starts on this computer’s ledger; a test with nothing stored says so', async () => {
    expect((await call('team:get')).data).toEqual({ settings: null, hasPassword: false })
    expect((await call('team:test')).data).toMatchObject({ verdict: 'invalid_settings', identity: null })
    expect((await call('team:test', { settings: settings() })).data).toMatchObject({ verdict: 'no_password' })
  })

  it('ok: identity, schema version and the approval threshold', async () => {
    expect(await test(settings(), PW)).toEqual({
      verdict: 'ok',
      identity: 'ana',
      schemaVersion: PG_LATEST_VERSION,
      approvalAboveCents: 500000,
      detail: null,
    })
  })

  it('wrong password → auth_failed (SQLSTATE 28P01); unknown role too', async () => {
    expect(await test(settings(), 'not-her-password')).toMatchObject({
      verdict: 'auth_failed',
      identity: null,
      detail: 'SQLSTATE 28P01',
    })
    expect(await test(settings({ role: 'ninguem' }), PW)).toMatchObject({ verdict: 'auth_failed' })
  })

  it('a role outside the analysts group → permission_denied, naming the role', async () => {
    expect(await test(settings({ role: 'carlos' }), 'carlos-pw')).toMatchObject({
      verdict: 'permission_denied',
      identity: 'carlos',
      detail: 'role is not a member of depix_analysts',
    })
  })

  it('a database that does not exist → database_not_found', async () => {
    expect(await test(settings({ database: 'depix_nope' }), PW)).toMatchObject({
      verdict: 'database_not_found',
      detail: 'SQLSTATE 3D000',
    })
  })

  it('nothing listening → unavailable, at once', async () => {
    const started = Date.now()
    expect(await test(settings({ port: await freePort() }), PW)).toMatchObject({
      verdict: 'unavailable',
      detail: 'ECONNREFUSED',
    })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('a server without TLS, with verify-full or require → tls_failed', async () => {
    for (const tls of ['verify-full', 'require'] as const) {
      expect(await test(settings({ tls }), PW)).toMatchObject({
        verdict: 'tls_failed',
        detail: 'server does not offer TLS (SSLRequest answered N)',
      })
    }
  })

  it('a schema newer than the app → schema_too_new; older → schema_too_old', async () => {
    const owner = await team.owner()
    const future = PG_LATEST_VERSION + 1
    await owner.query(`INSERT INTO ledger.schema_version (version, name) VALUES ($1, 'future')`, [future])
    try {
      expect(await test(settings(), PW)).toMatchObject({
        verdict: 'schema_too_new',
        identity: 'ana',
        schemaVersion: future,
      })
    } finally {
      await owner.query('DELETE FROM ledger.schema_version WHERE version = $1', [future])
    }
    const latest = await owner.query('SELECT * FROM ledger.schema_version WHERE version = $1', [
      PG_LATEST_VERSION,
    ])
    await owner.query('DELETE FROM ledger.schema_version WHERE version = $1', [PG_LATEST_VERSION])
    try {
      expect(await test(settings(), PW)).toMatchObject({
        verdict: 'schema_too_old',
        // The migration before the latest (versions are renumbered at merge, not always consecutive).
        schemaVersion: PG_MIGRATIONS[PG_MIGRATIONS.length - 2]?.version ?? 0,
      })
    } finally {
      const row = latest.rows[0] as { version: number; name: string }
      await owner.query('INSERT INTO ledger.schema_version (version, name) VALUES ($1, $2)', [
        row.version,
        row.name,
      ])
    }
    expect((await test(settings(), PW)).verdict).toBe('ok')
  })

  it('save: refusals by field, then stored, reconnected and testable without retyping the password', async () => {
    const bad = await call('team:save', { settings: { ...settings(), host: 'postgres://x' }, password: PW })
    expect(bad.error).toMatchObject({ code: 'invalid_input', fields: { 'settings.host': 'host_invalid' } })
    const noPw = await call('team:save', { settings: settings() })
    expect(noPw.error).toMatchObject({ code: 'invalid_input', fields: { password: 'password_required' } })
    const network = await call('team:save', { settings: settings({ host: 'db.example' }), password: PW })
    expect(network.error).toMatchObject({ fields: { 'settings.tls': 'tls_required' } })
    expect((await call('team:get')).data).toEqual({ settings: null, hasPassword: false })

    const changes = seen.filter((s) => s.startsWith('event profile:changed')).length
    const saved = await call('team:save', { settings: settings(), password: PW })
    expect(saved.data).toEqual({ settings: settings(), hasPassword: true })
    expect(seen.filter((s) => s.startsWith('event profile:changed')).length).toBe(changes + 1)
    expect(ctx.profiles.teamLedgerConnection(SANDBOX_PROFILE_ID)).toEqual({
      settings: settings(),
      password: PW,
    })
    expect((await call('team:get')).data).toEqual({ settings: settings(), hasPassword: true })

    // The stored settings and password, or edited settings on the same server.
    expect((await call('team:test')).data).toMatchObject({ verdict: 'ok', identity: 'ana' })
    expect(await test(settings({ database: 'depix_nope' }))).toMatchObject({ verdict: 'database_not_found' })
    // Another server, role or TLS never gets the stored password.
    expect(await test(settings({ role: 'carlos' }))).toMatchObject({ verdict: 'no_password' })
    expect(await test(settings({ port: team.cluster.port + 1 }))).toMatchObject({ verdict: 'no_password' })
  })

  it('forget: back to this computer’s ledger, password deleted, runtime reopened', async () => {
    const changes = seen.filter((s) => s.startsWith('event profile:changed')).length
    expect((await call('team:forget')).data).toEqual({ settings: null, hasPassword: false })
    expect(vault.get(teamLedgerSecretKey(SANDBOX_PROFILE_ID))).toBeNull()
    expect(ctx.profiles.teamLedgerConnection(SANDBOX_PROFILE_ID)).toBeNull()
    expect(seen.filter((s) => s.startsWith('event profile:changed')).length).toBe(changes + 1)
    expect((await call('team:test')).data).toMatchObject({ verdict: 'invalid_settings' })
  })

  it('hostile input is refused before anything connects', async () => {
    for (const input of [
      { settings: { ...settings(), port: 5432.5 }, password: PW },
      { settings: settings(), password: '' },
      { settings: settings(), password: 'x'.repeat(1025) },
      { settings: { ...settings(), role: 'ana; DROP TABLE x' }, password: PW },
      { settings: settings(), password: PW, extra: true },
    ]) {
      const r = await call('team:test', input)
      expect(r.ok).toBe(false)
      expect(r.error?.code).toBe('invalid_input')
    }
  })

  it('no password in any result, event or log line', () => {
    expect(seen.length).toBeGreaterThan(20)
    const leaks = seen.filter(
      (s) => s.includes(PW) || s.includes('carlos-pw') || s.includes('not-her-password'),
    )
    expect(leaks).toEqual([])
  })
})

describe('a server that accepts the connection and never answers', () => {
  it('is unavailable after the timeout, with or without TLS, and nothing hangs', async () => {
    const sockets: net.Socket[] = []
    const silent = net.createServer((sock) => sockets.push(sock))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as net.AddressInfo).port
    try {
      for (const tls of ['disable', 'verify-full'] as const) {
        const started = Date.now()
        const r = await probeTeamLedger(
          { host: '127.0.0.1', port, database: 'depix_team', role: 'ana', tls, caPem: null },
          PW,
          { timeoutMs: 400 },
        )
        expect(r).toMatchObject({ verdict: 'unavailable', identity: null })
        expect(r.detail).not.toContain(PW)
        expect(Date.now() - started).toBeLessThan(3_000)
      }
    } finally {
      for (const sock of sockets) sock.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})
