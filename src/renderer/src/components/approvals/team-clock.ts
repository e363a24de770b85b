/**
 * What the team's clocks say to the analyst (issue #25): whether this computer's clock is off the team server's by
 * more than a minute (the top bar says so), and how fresh the tracking desk's heartbeat is (Configurações). Pure:
 * the components translate.
 */
import { CLOCK_SKEW_NOTICE_MS, type TeamStatus } from '../../../../shared/channels-team'

/** A duration as people read it, the same in pt-BR and English: "45 s", "12 min", "3 h", "3 h 5 min". */
export function durationText(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000)
  if (s < 120) return `${s} s`
  const min = Math.round(s / 60)
  if (min < 60) return `${min} min`
  const h = Math.floor(min / 60)
  const rest = min % 60
  return rest === 0 ? `${h} h` : `${h} h ${rest} min`
}

/** This computer's clock against the server's, when it is off by more than the notice's limit; else null. */
export function clockSkewNotice(
  status: TeamStatus | null,
): { direction: 'ahead' | 'behind'; amount: string } | null {
  const skew = status?.engine === 'postgres' ? status.clockSkewMs : null
  if (skew === null || skew === undefined || Math.abs(skew) <= CLOCK_SKEW_NOTICE_MS) return null
  // skew = server − desk: a negative one means this computer is ahead.
  return { direction: skew < 0 ? 'ahead' : 'behind', amount: durationText(skew) }
}

/** Who tracks statuses for the team and how fresh its heartbeat is; null off a team or before anyone led. */
export function teamLeadView(
  status: TeamStatus | null,
): { holder: string; age: string; lapsed: boolean; self: boolean } | null {
  const lead = status?.engine === 'postgres' ? status.lead : null
  if (!lead) return null
  return {
    holder: lead.holder,
    age: durationText(lead.heartbeatAgeMs),
    lapsed: lead.lapsed,
    self: status?.identity === lead.holder && status.leader,
  }
}
