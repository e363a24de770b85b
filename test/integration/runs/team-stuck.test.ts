/**
 * Issue #25 F5/F6: team runs that cannot get stuck, on a real PostgreSQL cluster and the real sandbox.
 * - F5: a team desk (a child process) is SIGKILLed while one row's POST is in flight; another desk (another analyst
 *   role) is refused while the dead desk's lease on the wave lives, then takes the run over: the row in flight is
 *   "outcome unknown" (resolved from the run), the rest are created exactly once.
 * - F6: the database stops while a row's POST is in flight and comes back after the answer: without an app restart
 *   the desk replays the answer it could not store, recovers the run and finishes the wave.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { RunError } from '../../../src/main/runs'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../../main/ledger/team'
import { openTeamDesk, teamRunCsv, type TeamDesk } from './team-desk'

announceSkip('team runs that cannot get stuck (postgres + sandbox)')

const REPO = path.resolve(__dirname, '../../..')
const CHILD = path.join(__dirname, 'fixtures', 'team-run-child.ts')
const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
const LEASE_MS = 3_000
const HOLD_MS = 1_500

async function until<T>(
  what: string,
  f: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('team runs that cannot get stuck', () => {
  let team: Team
  let sb: Sandbox
  const desks: TeamDesk[] = []
  const posts = (): number => sb.control.requestCounts()['POST /api/withdraw'] ?? 0
  const desk = async (name: string): Promise<TeamDesk> => {
    await team.addAnalyst(name)
    const d = await openTeamDesk({
      connection: team.config(name),
      baseUrl: sb.baseUrl,
      clientId: sb.credentials.clientId,
      clientSecret: sb.credentials.clientSecret,
      operator: name,
      refundAddress: REFUND,
      runLeaseMs: LEASE_MS,
    })
    desks.push(d)
    return d
  }

  beforeAll(async () => {
    team = await startTeam()
    sb = await startSandbox({ rateLimits: { withdraw: 600 } })
  }, 120_000)
  afterAll(async () => {
    for (const d of desks) await d.close().catch(() => undefined)
    await sb?.close()
    await team?.stop()
  })

  it('F5: the creating desk is killed mid-wave; another desk takes the run over once its lease expires', async () => {
    await team.addAnalyst('ana')
    sb.control.resetRequestCounts()
    sb.control.injectFault({ kind: 'slow', delayMs: HOLD_MS, endpoint: 'withdraw', count: 1 })
    const child = spawn(
      process.execPath,
      [
        '--no-warnings',
        '--import',
        'tsx',
        CHILD,
        JSON.stringify(team.config('ana')),
        sb.baseUrl,
        sb.credentials.clientId,
        sb.credentials.clientSecret,
        REFUND,
        '4',
        String(LEASE_MS),
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const stderr: string[] = []
    createInterface({ input: child.stderr }).on('line', (l) => stderr.push(l))
    const runId = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (l) => {
        if (l.startsWith('run ')) resolve(l.slice(4))
      })
      child.once('exit', () => reject(new Error(`child exited: ${stderr.join(' | ')}`)))
    })
    await until('the first POST in flight', () => posts() === 1)
    const exited = new Promise((r) => child.once('exit', (code, signal) => r(signal ?? code)))
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')

    const bia = await desk('bia')
    let d = await bia.runs.detail(runId)
    expect(d.run.state).toBe('creating')
    expect(d.rows.map((r) => r.state)).toEqual(['in_flight', 'queued', 'queued', 'queued'])
    expect(d.takeover).toBe(false)
    // The dead desk's lease is still live: refused, and the refusal says until when (server clock).
    const early = await bia.runs.resume(runId).then(
      () => null,
      (e: unknown) => e,
    )
    expect(early).toBeInstanceOf(RunError)
    expect((early as RunError).code).toBe('busy')
    expect((early as RunError).userMessage?.['pt-BR']).toContain('assumir o lote')

    // Once the lease has expired (the run page offers the takeover), any desk may take the run over.
    await until(
      'the lease to expire',
      async () => ((await bia.runs.detail(runId)).takeover ? true : undefined),
      LEASE_MS + 10_000,
    )
    await bia.runs.resume(runId)
    await bia.runs.idle(runId)
    d = await bia.runs.detail(runId)
    expect(d.run.state).toBe('awaiting_funding')
    // The row in flight at the kill: its POST did reach the service, nobody knows its id — outcome unknown, never
    // sent again; the other three were created once, by the desk that took over.
    expect(d.rows.map((r) => r.outcome)).toEqual(['outcome_unknown', 'created', 'created', 'created'])
    await new Promise((r) => setTimeout(r, HOLD_MS))
    expect(posts()).toBe(4)
    const keys = sb.control.state().withdrawals.map((w) => w.pixKey)
    expect(keys.filter((k) => k.startsWith('t')).sort()).toEqual([
      't0@example.com',
      't1@example.com',
      't2@example.com',
      't3@example.com',
    ])
    // Resolved from the run page with the id support finds.
    const made = sb.control.state().withdrawals.find((w) => w.pixKey === 't0@example.com')!
    d = await bia.runs.resolveRow(runId, 0, { withdrawalId: made.id })
    expect(d.rows[0]!.outcome).toBe('created')
    const audit = await bia.store.audit({ subject: runId })
    const interrupted = audit.rows.find((e) => e.action === 'run.interrupted')
    expect(interrupted?.details).toMatchObject({ cause: 'takeover' })
  }, 90_000)

  it('F6: the database restarts while a POST is in flight; the run finishes without an app restart', async () => {
    const cai = await desk('cai')
    sb.control.resetRequestCounts()
    const { run } = await cai.runs.importFile(teamRunCsv('db', 3, 50), 'restart')
    const runId = run!.runId
    await cai.runs.approve(runId, (await cai.runs.detail(runId)).summary.payoutCents)
    sb.control.injectFault({ kind: 'slow', delayMs: HOLD_MS, endpoint: 'withdraw', count: 1 })
    await cai.runs.startWave(runId, 3)
    await until('the first POST in flight', () => posts() === 1)
    // Down before the answer arrives, up again after it: the answer cannot be stored when it comes.
    team.cluster.stopServer()
    await new Promise((r) => setTimeout(r, HOLD_MS + 1_000))
    team.cluster.startServer()

    const d = await until(
      'the wave to finish after the restart',
      async () => {
        const x = await cai.runs.detail(runId).catch(() => undefined)
        return x?.run.state === 'awaiting_funding' ? x : undefined
      },
      60_000,
    )
    expect(posts()).toBe(3)
    // The answer the database could not take was kept by the desk and applied: created, with its id.
    expect(d.rows.map((r) => r.outcome)).toEqual(['created', 'created', 'created'])
    const actions = (await cai.store.audit({ subject: runId })).rows.map((e) => [
      e.action,
      e.details['cause'],
    ])
    expect(actions).toContainEqual(['run.interrupted', 'database'])
    const first = await cai.store.get(d.rows[0]!.localId!)
    expect(first?.remoteId).toBe(
      sb.control.state().withdrawals.find((w) => w.pixKey === 'db0@example.com')?.id,
    )
  }, 120_000)

  it('F8 on the team ledger: partially paid, a passing refusal retried (the database releases its local id)', async () => {
    const dan = await desk('dan')
    const { run } = await dan.runs.importFile(teamRunCsv('retry', 2, 70), 'retry')
    const runId = run!.runId
    await dan.runs.approve(runId, (await dan.runs.detail(runId)).summary.payoutCents)
    sb.control.injectFault({
      kind: 'refusal',
      status: 520,
      messageCode: 'NETWORK_WALLET_UNAVAILABLE',
      endpoint: 'withdraw',
    })
    await dan.runs.startWave(runId, 2)
    await dan.runs.idle(runId)
    let d = await dan.runs.markWaveFunded(runId, 1)
    // (Funding is marked in the background: the second row is created or already funded.)
    expect(d.rows.map((r) => [r.outcome === 'funded' ? 'created' : r.outcome, r.retry])).toEqual([
      ['rejected', true],
      ['created', false],
    ])
    expect(d.run.state).toBe('partially_paid')
    d = await dan.runs.retryRow(runId, 0)
    expect(d.run.state).toBe('approved')
    await dan.runs.startWave(runId)
    await dan.runs.idle(runId)
    d = await dan.runs.markWaveFunded(runId, 2)
    expect(d.rows.map((r) => (r.outcome === 'funded' ? 'created' : r.outcome))).toEqual([
      'created',
      'created',
    ])
    expect(d.run.state).toBe('completed')
  }, 60_000)
})
