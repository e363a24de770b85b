/**
 * End-user limits (docs/API-CONTRACT.md#s2-6, §4.5): GET /user-info for an EUID, as the daily ceiling, what was used today and
 * when it resets. The daily fields concern deposits only. Fields absent or broken are shown as unknown (null),
 * never as zero.
 */
import type { UserInfoView } from '../../shared/channels-deposits'
import type { DepixClient } from '../api'

const cents = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null)

export async function userInfo(client: Pick<DepixClient, 'userInfo'>, euid: string): Promise<UserInfoView> {
  const res = await client.userInfo(euid.trim())
  const d = res.data
  return {
    euid: euid.trim(),
    maxDailyCents: cents(d.maxDailyInCents),
    usedTodayCents: cents(d.dailyVolumeInCents),
    resetsAt: typeof d.dailyLimitResetTime === 'string' ? d.dailyLimitResetTime : null,
  }
}
