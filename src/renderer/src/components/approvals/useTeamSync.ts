/**
 * Keeps the team store current: asks at start-up and after a profile switch, then follows main's events. A click
 * on an approval's desktop notification (main's `notification:openApprovals`) opens the Aprovações page, on a run
 * approval's (`notification:openRun`) that run's screen.
 */
import { useEffect } from 'react'
import { useEvent } from '../../ipc'
import { useRoute } from '../../stores/route'
import { useTeam } from '../../stores/team'

export function useTeamSync(): void {
  const refresh = useTeam((s) => s.refresh)
  const setStatus = useTeam((s) => s.setStatus)
  const changed = useTeam((s) => s.changed)
  const recordChanged = useTeam((s) => s.recordChanged)
  const refreshRuns = useTeam((s) => s.refreshRuns)
  const go = useRoute((s) => s.go)
  useEffect(() => void refresh(), [refresh])
  // A switch may change the engine (t16conn re-opens the runtime after team:save / team:forget).
  useEvent('profile:changed', () => void refresh())
  useEvent('team:status', setStatus)
  useEvent('approval:changed', (a) => changed(a, true))
  // A send makes a record, not an approval event: an approved item whose payment now exists leaves the queue.
  useEvent('withdrawal:changed', (r) => recordChanged(r.localId))
  // A run asked for approval, approved, rejected or changed on any desk (LISTEN depix_runs): the queue follows.
  useEvent('run:changed', () => void refreshRuns())
  useEvent('notification:openRun', ({ runId }) => {
    useTeam.getState().dismissToast()
    go({ page: 'runs', runId })
  })
  useEvent('notification:openApprovals', () => {
    // The queue may have moved while the app was in the background: the page asks main again when it opens.
    useTeam.getState().dismissToast()
    go({ page: 'approvals' })
  })
}
