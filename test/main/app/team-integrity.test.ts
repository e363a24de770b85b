/**
 * The team ledger's chain checked when a team profile opens (app/team-integrity.ts, wired in app/context.ts).
 * First the check alone, on a stand-in store (a failure of each kind, the check never on the opening path, nothing
 * reported after stop); then through the app (team-rig.ts: a real PostgreSQL cluster, the real sandbox, one app
 * context per analyst role): a desk opening on a team ledger whose row the owner edited gets the alert on the
 * renderer's channel, with the team marker, on every desk that opens it; once the row is put back a re-opened
 * desk has no alert; a desk whose server is out of reach is not told its chain is broken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrityView, startTeamIntegrityCheck } from '../../../src/main/app/team-integrity'
import { unavailable, TeamLedgerError } from '../../../src/main/ledger/team-errors'
import type { LedgerIntegrity } from '../../../src/shared/contract'
import type { AuditVerification } from '../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { draft, pay, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('team ledger chain check at open (postgres + sandbox + app contexts)')

const LOCAL_OK: LedgerIntegrity = { state: 'ok', checkedAt: '2026-01-01T00:00:00.000Z', rows: 3 }

describe('the team chain check on its own', () => {
  const run = async (
    verify: () => Promise<AuditVerification>,
  ): Promise<{ status: LedgerIntegrity | null; changes: number; logs: string[] }> => {
    let changes = 0
    const logs: string[] = []
    const c = startTeamIntegrityCheck({
      store: { verifyAuditChain: verify },
      onChange: () => (changes += 1),
      log: (l) => logs.push(l),
    })
    await c.done
    return { status: c.status(), changes, logs }
  }

  it('a broken chain is reported with the team marker and takes the alert over this computer’s', async () => {
    const r = await run(() => Promise.resolve({ ok: false, brokenAt: 7, reason: 'record x differs' }))
    expect(r.status).toMatchObject({
      state: 'broken',
      brokenAt: 7,
      reason: 'record x differs',
      ledger: 'team',
    })
    expect(r.changes).toBe(1)
    expect(integrityView(LOCAL_OK, r.status)).toBe(r.status)
  })

  it('a sound chain leaves the alert to this computer’s ledger', async () => {
    const r = await run(() => Promise.resolve({ ok: true, rows: 12 }))
    expect(r.status).toMatchObject({ state: 'ok', rows: 12, ledger: 'team' })
    expect(integrityView(LOCAL_OK, r.status)).toBe(LOCAL_OK)
    // A broken local ledger still shows on a team profile (its top-ups live there).
    const localBroken: LedgerIntegrity = { state: 'broken', checkedAt: null, brokenAt: 2 }
    expect(integrityView(localBroken, r.status)).toBe(localBroken)
  })

  it('a server out of reach is not a broken chain: left unchecked, no alert', async () => {
    const r = await run(() => Promise.reject(unavailable(new Error('ECONNREFUSED'))))
    expect(r.status).toBeNull()
    expect(integrityView(LOCAL_OK, r.status)).toBe(LOCAL_OK)
    expect(r.logs.join('\n')).toMatch(/out of reach/)
  })

  it('any other failure is “could not check”, never “broken”, and says nothing of the server', async () => {
    const denied = new TeamLedgerError('permission_denied', 'no', { 'pt-BR': 'não', en: 'no' })
    const r = await run(() => Promise.reject(denied))
    expect(r.status).toMatchObject({ state: 'error', ledger: 'team' })
    expect(r.status).not.toHaveProperty('reason')
    expect(integrityView(LOCAL_OK, r.status)).toBe(r.status)
  })

  it('never runs on the opening path, and reports nothing once stopped', async () => {
    let called = 0
    let release: (v: AuditVerification) => void = () => undefined
    let changes = 0
    const c = startTeamIntegrityCheck({
      store: {
        verifyAuditChain: () => {
          called += 1
          return new Promise((r) => (release = r))
        },
      },
      onChange: () => (changes += 1),
      log: () => undefined,
    })
    expect(called).toBe(0) // returned before the first row is asked for
    expect(c.status()).toMatchObject({ state: 'checking' })
    await until('the check under way', () => Promise.resolve(called === 1 ? true : undefined))
    c.stop()
    release({ ok: false, brokenAt: 1, reason: 'late' })
    await c.done
    expect(changes).toBe(0)
    expect(c.status()).toBeNull()
  })
})

type Event = { event: string; payload: unknown }
const integrityEvents = (d: Desk, from = 0): LedgerIntegrity[] =>
  d.events
    .slice(from)
    .filter((e: Event) => e.event === 'ledger:integrity')
    .map((e) => e.payload as LedgerIntegrity)
const teamAlerts = (d: Desk, from = 0): LedgerIntegrity[] =>
  integrityEvents(d, from).filter((s) => s.ledger === 'team')
const statusOn = async (d: Desk): Promise<LedgerIntegrity> =>
  (await d.call('ledger:integrity')).data as LedgerIntegrity

describe.skipIf(PG_SKIP_REASON !== null)('the team chain checked when a team profile opens', () => {
  let rig: DeskRig
  let alice: Desk
  let target = ''
  let amount = ''

  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob'])
    alice = rig.desks[0]!
    const r = await pay(alice, draft('integridade@example.com', 2_500))
    expect(r.ok).toBe(true)
    target = (r.data as { localId: string }).localId
  }, 120_000)
  afterAll(async () => rig?.stop())

  /** Re-selects `d`'s profile (re-opens its runtime) and waits for its team check to report. */
  const reopen = async (d: Desk): Promise<number> => {
    const from = d.events.length
    expect((await d.call('profiles:select', { id: d.profileId })).ok).toBe(true)
    // One event as the old runtime closes (its alert goes), one when the new runtime's check is over.
    await until('the check of the re-opened profile', () =>
      Promise.resolve(integrityEvents(d, from).length >= 2 ? true : undefined),
    )
    return from
  }

  it('a clean team ledger raises no alert', async () => {
    const from = await reopen(alice)
    expect(teamAlerts(alice, 0)).toEqual([])
    expect(integrityEvents(alice, from).every((s) => s.state !== 'broken')).toBe(true)
    expect(await statusOn(alice)).not.toMatchObject({ state: 'broken' })
  })

  it('a row the owner edited: every desk that opens the team ledger gets the team alert', async () => {
    const owner = await rig.team.owner()
    amount = (
      (await owner.query('SELECT amount_cents FROM withdrawals WHERE local_id = $1', [target])).rows[0] as {
        amount_cents: string
      }
    ).amount_cents
    await owner.query('UPDATE withdrawals SET amount_cents = amount_cents + 100 WHERE local_id = $1', [
      target,
    ])
    await rig.team.addAnalyst('carol')
    const carol = await rig.openDesk('carol', rig.settingsFor('carol'), 'carol-pw')
    rig.desks.push(carol)
    for (const d of [carol, alice]) {
      if (d === alice) await reopen(alice)
      const [alert] = await until('the team alert', () =>
        Promise.resolve(teamAlerts(d).length > 0 ? teamAlerts(d) : undefined),
      )
      expect(alert).toMatchObject({ state: 'broken', ledger: 'team' })
      expect(alert!.reason).toContain(target)
      // The channel the banner asks on mount says the same.
      expect(await statusOn(d)).toMatchObject({ state: 'broken', ledger: 'team' })
    }
    // Still a working desk: the check only reports (reads go on).
    expect((await carol.call('withdrawals:get', { localId: target })).ok).toBe(true)
  })

  it('put back: a re-opened desk has no alert any more', async () => {
    const owner = await rig.team.owner()
    await owner.query('UPDATE withdrawals SET amount_cents = $2 WHERE local_id = $1', [target, amount])
    const from = await reopen(alice)
    expect(teamAlerts(alice, from)).toEqual([])
    expect(await statusOn(alice)).not.toMatchObject({ state: 'broken' })
    expect(await statusOn(alice)).not.toHaveProperty('ledger')
  })

  it('a desk whose server is out of reach is not told its chain is broken', async () => {
    const dora = await rig.openDesk('dora', rig.settingsFor('dora', 1), 'dora-pw')
    rig.desks.push(dora)
    expect((await dora.call('team:status')).data).toMatchObject({ connected: false })
    await new Promise((r) => setTimeout(r, 300))
    expect(teamAlerts(dora)).toEqual([])
    expect(integrityEvents(dora).every((s) => s.state !== 'broken')).toBe(true)
    expect(await statusOn(dora)).not.toMatchObject({ state: 'broken' })
  })
})
