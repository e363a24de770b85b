/** Keeps the team store current: asks at start-up and after a profile switch, then follows main's events. */
import { useEffect } from 'react'
import { useEvent } from '../../ipc'
import { useTeam } from '../../stores/team'

export function useTeamSync(): void {
  const refresh = useTeam((s) => s.refresh)
  const setStatus = useTeam((s) => s.setStatus)
  const changed = useTeam((s) => s.changed)
  useEffect(() => void refresh(), [refresh])
  // A switch may change the engine (t16conn re-opens the runtime after team:save / team:forget).
  useEvent('profile:changed', () => void refresh())
  useEvent('team:status', setStatus)
  useEvent('approval:changed', (a) => changed(a, true))
}
