/**
 * The active profile in the top bar, and a switcher beside it (issue #26): the same `profiles:select` the
 * Configurações table uses, without leaving the page. Main holds a switch while a create waits for its answer
 * (the waiting banner says so); a refused switch is said in words, the chip keeps the profile in use.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelOutput, IpcError } from '../../../../shared/contract'
import { call, useEvent } from '../../ipc'
import { useApp } from '../../stores/app'
import { ErrorNotice } from '../ErrorNotice'
import { withProfileMessage } from '../settings/logic'

export function ProfileSwitcher({ label }: { label: string }): React.JSX.Element | null {
  const { t } = useTranslation('layout')
  const id = useId()
  const { setSession, setAllowances } = useApp()
  const [list, setList] = useState<ChannelOutput<'profiles:list'> | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const load = useCallback(() => {
    void call('profiles:list').then((r) => r.ok && setList(r.data))
  }, [])
  useEffect(load, [load])
  useEvent('profile:changed', load)
  if (!list || list.profiles.length < 2) return null

  const select = async (profileId: string): Promise<void> => {
    if (profileId === list.activeId) return
    setBusy(true)
    setError(null)
    const r = await call('profiles:select', { id: profileId })
    setBusy(false)
    if (!r.ok) return setError(withProfileMessage(r.error))
    load()
    void call('session:get').then((s) => s.ok && setSession(s.data))
    void call('allowance:get').then((a) => a.ok && setAllowances(a.data))
  }

  return (
    <span className="profile-switch">
      <label htmlFor={`${id}-profile`} className="visually-hidden">
        {t('shell.switchProfile', { profile: label })}
      </label>
      <select
        id={`${id}-profile`}
        data-testid="profile-switcher"
        value={list.activeId}
        disabled={busy}
        aria-busy={busy || undefined}
        onChange={(e) => void select(e.target.value)}
      >
        {list.profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({t(p.kind === 'sandbox' ? 'shell.profileSandbox' : 'shell.profileLive')})
          </option>
        ))}
      </select>
      {error && <ErrorNotice error={error} />}
    </span>
  )
}
