/**
 * The desk's status tracker runs only while its desk leads the team (pg/leader.ts): started or resumed when the
 * lead is taken, paused the moment it is lost, so at most one desk polls the API for the team's open records.
 * Followers keep their tracker paused and learn statuses from the ledger (LISTEN depix_records).
 */
import type { TrackerLeadership } from './leader'

export function trackWhileLeading(
  leadership: Pick<TrackerLeadership, 'isLeader' | 'on' | 'off'>,
  tracker: { start(): void; pause(): void; resume(): void },
): () => void {
  let started = false
  const apply = (leading: boolean): void => {
    if (leading && !started) {
      started = true
      tracker.start()
    } else if (leading) {
      tracker.resume()
    } else if (started) {
      tracker.pause()
    }
  }
  apply(leadership.isLeader)
  leadership.on('leader', apply)
  return () => leadership.off('leader', apply as (v: never) => void)
}
