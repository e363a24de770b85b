/**
 * The top bar's clock notice and Configurações' tracking line, from `team:status` (issue #25): a computer more than a
 * minute off the team server's clock is told which way and by how much; a lapsed lease names its silent desk.
 */
import { describe, expect, it } from 'vitest'
import type { TeamStatus } from '../../src/shared/channels-team'
import {
  clockSkewNotice,
  durationText,
  teamLeadView,
} from '../../src/renderer/src/components/approvals/team-clock'
import { namespaces } from '../../src/renderer/src/i18n/locales'

const team = (over: Partial<TeamStatus>): TeamStatus => ({
  engine: 'postgres',
  identity: 'ana',
  connected: true,
  leader: false,
  approvalAboveCents: null,
  ...over,
})

describe('clock skew notice', () => {
  it('says nothing within a minute, off a team, or before the first reading', () => {
    expect(clockSkewNotice(team({ clockSkewMs: 59_000 }))).toBeNull()
    expect(clockSkewNotice(team({ clockSkewMs: -60_000 }))).toBeNull()
    expect(clockSkewNotice(team({ clockSkewMs: null }))).toBeNull()
    expect(clockSkewNotice(team({}))).toBeNull()
    expect(clockSkewNotice({ ...team({ clockSkewMs: 3_600_000 }), engine: 'sqlite' })).toBeNull()
    expect(clockSkewNotice(null)).toBeNull()
  })

  it('a computer 3 h ahead of the server (server − desk < 0) is "ahead"; 90 s behind is "behind"', () => {
    expect(clockSkewNotice(team({ clockSkewMs: -3 * 3_600_000 }))).toEqual({
      direction: 'ahead',
      amount: '3 h',
    })
    expect(clockSkewNotice(team({ clockSkewMs: 90_000 }))).toEqual({ direction: 'behind', amount: '90 s' })
    expect(clockSkewNotice(team({ clockSkewMs: -(25 * 60 + 5) * 60_000 }))).toEqual({
      direction: 'ahead',
      amount: '25 h 5 min',
    })
  })

  it('reads as people write it in both languages', () => {
    const pt = namespaces.approvals['pt-BR'].team.clockAhead.replace(
      '{{amount}}',
      durationText(-3 * 3_600_000),
    )
    expect(pt).toBe(
      'O relógio deste computador está 3 h adiantado em relação ao servidor da equipe: acerte a hora.',
    )
    const en = namespaces.approvals.en.team.clockBehind.replace('{{amount}}', durationText(120_000))
    expect(en).toBe("This computer's clock is 2 min behind the team server's: set the time.")
  })
})

describe('who tracks for the team', () => {
  it('names the holder, the heartbeat age, whether it lapsed and whether it is this desk', () => {
    expect(teamLeadView(team({ lead: null }))).toBeNull()
    expect(teamLeadView(team({ lead: { holder: 'bia', heartbeatAgeMs: 3_200, lapsed: false } }))).toEqual({
      holder: 'bia',
      age: '3 s',
      lapsed: false,
      self: false,
    })
    expect(
      teamLeadView(team({ leader: true, lead: { holder: 'ana', heartbeatAgeMs: 0, lapsed: false } }))?.self,
    ).toBe(true)
    expect(teamLeadView(team({ lead: { holder: 'bia', heartbeatAgeMs: 400_000, lapsed: true } }))).toEqual({
      holder: 'bia',
      age: '7 min',
      lapsed: true,
      self: false,
    })
  })
})
