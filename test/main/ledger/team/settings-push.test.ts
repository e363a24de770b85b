/**
 * The approval threshold is pushed to every desk (migration 6's NOTIFY on `team_settings`, heard by each desk's
 * leadership connection): two roles hear the owner's change within a second, an unchanged value says nothing, a
 * desk cut off while the owner changed it hears the new value when it reconnects, and a payload that is not a
 * threshold is dropped. Real throwaway cluster.
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLeadership, type TrackerLeadership } from '../../../../src/main/ledger/engines'
import type { TeamSettingsEvent } from '../../../../src/main/ledger/pg/settings-event'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('team settings pushed over LISTEN/NOTIFY (postgres)')

async function until<T>(what: string, f: () => T | undefined, ms = 5_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('team settings pushed to every desk', () => {
  let team: Team
  let owner: pg.Client
  const desks: Array<{ l: TrackerLeadership; heard: Array<TeamSettingsEvent & { at: number }> }> = []
  beforeAll(async () => {
    team = await startTeam()
    owner = await team.owner()
    for (const name of ['ana', 'bia']) {
      await team.addAnalyst(name)
      const l = startLeadership({ connection: team.config(name), retryMs: 100 })
      const heard: Array<TeamSettingsEvent & { at: number }> = []
      l.on('settings', (s) => heard.push({ ...s, at: Date.now() }))
      await l.ready()
      desks.push({ l, heard })
    }
  }, 120_000)
  afterAll(async () => {
    for (const d of desks) await d.l.stop()
    await team?.stop()
  })

  it('both desks hear the owner change the threshold within a second, with its value', async () => {
    const from = desks.map((d) => d.heard.length)
    const at = Date.now()
    await owner.query('UPDATE team_settings SET approval_above_cents = 123456 WHERE id = 1')
    for (const [i, d] of desks.entries()) {
      const e = await until('the new threshold', () => d.heard.slice(from[i]).at(-1))
      expect(e.approvalAboveCents).toBe(123_456)
      expect(e.at - at).toBeLessThan(1_000)
      expect(d.l.listening).toBe(true)
    }
    // Turned off is pushed too (null).
    await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
    for (const d of desks)
      await until('approval off', () => (d.heard.at(-1)?.approvalAboveCents === null ? 1 : undefined))
  })

  it('says nothing when the value did not change (the trigger compares)', async () => {
    await owner.query('UPDATE team_settings SET approval_above_cents = 500 WHERE id = 1')
    // Every desk, not one: the desks hear on their own connections, in their own time.
    for (const d of desks)
      await until('500', () => (d.heard.at(-1)?.approvalAboveCents === 500 ? 1 : undefined))
    const n = desks.map((d) => d.heard.length)
    await owner.query('UPDATE team_settings SET approval_above_cents = 500 WHERE id = 1')
    await owner.query('UPDATE team_settings SET approval_above_cents = 700 WHERE id = 1')
    for (const d of desks)
      await until('700', () => (d.heard.at(-1)?.approvalAboveCents === 700 ? 1 : undefined))
    // One event (700) per desk, none for the unchanged 500.
    expect(desks.map((d, i) => d.heard.slice(n[i]).map((e) => e.approvalAboveCents))).toEqual([[700], [700]])
  })

  it('a desk cut off while the owner changed it hears the new value when it reconnects', async () => {
    const bia = desks[1]!
    const pid = bia.l.backendPid
    expect(pid).not.toBeNull()
    await team.cluster.admin('SELECT pg_terminate_backend($1)', [pid])
    await until('bia disconnected', () => (bia.l.listening ? undefined : 1))
    await owner.query('UPDATE team_settings SET approval_above_cents = 999 WHERE id = 1')
    // Reconnects after sitting out three rounds (300 ms here) and reads the value it missed.
    const e = await until('the missed value', () =>
      bia.heard.at(-1)?.approvalAboveCents === 999 && bia.l.listening ? bia.heard.at(-1) : undefined,
    )
    expect(e.approvalAboveCents).toBe(999)
    await until('the other desk heard 999', () =>
      desks[0]!.heard.at(-1)?.approvalAboveCents === 999 ? 1 : undefined,
    )
  })

  it('drops a payload that is not a threshold (a NOTIFY any role can send)', async () => {
    const n = desks.map((d) => d.heard.length)
    for (const bad of [
      '{"approvalAboveCents":-1}',
      '{"approvalAboveCents":1.5}',
      '{"x":1}',
      'nope',
      `{"approvalAboveCents":${Number.MAX_SAFE_INTEGER + 2}}`,
    ]) {
      await owner.query('SELECT pg_notify($1, $2)', ['depix_settings', bad])
    }
    await owner.query('UPDATE team_settings SET approval_above_cents = 42 WHERE id = 1')
    await until('42', () => (desks[0]!.heard.at(-1)?.approvalAboveCents === 42 ? 1 : undefined))
    await until('42', () => (desks[1]!.heard.at(-1)?.approvalAboveCents === 42 ? 1 : undefined))
    expect(desks.map((d, i) => d.heard.slice(n[i]).map((e) => e.approvalAboveCents))).toEqual([[42], [42]])
  })
})
