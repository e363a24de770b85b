/**
 * The approval threshold reaches every desk's renderer when the owner changes it (migration 6's NOTIFY, the
 * leadership's LISTEN, the runtime's `team:status` event), and `team:status` answers with the pushed value.
 * Two app contexts, two roles, real cluster and sandbox (team-rig.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startDesks, statusOf, until, type Desk, type DeskRig, type TeamStatusView } from './team-rig'

announceSkip('team threshold pushed to the desks (postgres + sandbox + app contexts)')

describe.skipIf(PG_SKIP_REASON !== null)('the approval threshold pushed to every desk', () => {
  let rig: DeskRig
  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob'])
  }, 120_000)
  afterAll(async () => rig?.stop())

  const statusEvents = (d: Desk, from: number): Array<{ s: TeamStatusView; at: number }> =>
    d.events
      .map((e, i) => ({ e, at: d.eventAt[i]! }))
      .slice(from)
      .filter(({ e }) => e.event === 'team:status')
      .map(({ e, at }) => ({ s: e.payload as TeamStatusView, at }))

  it('the owner changes it: both desks emit team:status with the new value within a second', async () => {
    const owner = await rig.team.owner()
    for (const value of [25_000, 0, null]) {
      const from = rig.desks.map((d) => d.events.length)
      const at = Date.now()
      await owner.query('UPDATE team_settings SET approval_above_cents = $1 WHERE id = 1', [value])
      for (const [i, d] of rig.desks.entries()) {
        const e = await until(`${d.role} hears ${value}`, async () =>
          statusEvents(d, from[i]!).find((x) => x.s.approvalAboveCents === value),
        )
        expect(e.at - at).toBeLessThan(1_000)
        expect(e.s).toMatchObject({ engine: 'postgres', identity: d.role, connected: true })
        expect(await statusOf(d)).toMatchObject({ approvalAboveCents: value, connected: true })
      }
    }
  })

  it('team:status is the pushed value, not a read per call', async () => {
    const [alice] = rig.desks as [Desk]
    const team = alice.ctx.runtime().team!
    expect(team.leadership?.listening).toBe(true)
    const read = team.pg!.approvalThreshold
    let reads = 0
    team.pg!.approvalThreshold = async () => {
      reads += 1
      return read()
    }
    try {
      await statusOf(alice)
      await statusOf(alice)
      expect(reads).toBe(0)
    } finally {
      team.pg!.approvalThreshold = read
    }
  })
})
