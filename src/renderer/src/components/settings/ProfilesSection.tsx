/** Connection profiles: which one is in use, the vault's persistence, and adding/editing/removing live ones. */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelOutput, IpcError } from '../../../../shared/contract'
import type { PublicProfile } from '../../../../shared/profile'
import { call, useEvent } from '../../ipc'
import { useApp } from '../../stores/app'
import { ErrorNotice } from '../ErrorNotice'
import { AddLiveProfileForm } from './AddLiveProfileForm'
import { CredentialsForm } from './CredentialsForm'
import { EditProfileForm } from './EditProfileForm'
import { withProfileMessage } from './logic'
import { ProfileTable, type ProfileAction } from './ProfileTable'
import { RemoveProfileConfirm } from './RemoveProfileConfirm'
import { VaultNotice } from './VaultNotice'

type Panel = { kind: 'add' } | { kind: 'edit' | 'credentials' | 'remove'; profile: PublicProfile } | null

export function ProfilesSection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const { setSession, setAllowances } = useApp()
  const [list, setList] = useState<ChannelOutput<'profiles:list'> | null>(null)
  const [failure, setFailure] = useState<IpcError | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [panel, setPanel] = useState<Panel>(null)
  const [busy, setBusy] = useState(false)
  // Where focus goes back to when a panel closes: the button that opened it.
  const opener = useRef<HTMLElement | null>(null)
  const addButton = useRef<HTMLButtonElement>(null)

  const load = useCallback(() => {
    void call('profiles:list').then((r) => {
      if (r.ok) setList(r.data)
      else setFailure(r.error)
    })
  }, [])

  useEffect(load, [load])
  useEvent('profile:changed', load)

  const closePanel = (): void => {
    setPanel(null)
    const el = opener.current
    requestAnimationFrame(() => (el?.isConnected ? el : addButton.current)?.focus())
  }

  const finish = (message: string): void => {
    setNotice(message)
    closePanel()
    load()
  }

  const select = async (profile: PublicProfile): Promise<void> => {
    setBusy(true)
    setFailure(null)
    const r = await call('profiles:select', { id: profile.id })
    setBusy(false)
    if (!r.ok) return setFailure(withProfileMessage(r.error))
    setNotice(t('profiles.selected', { name: r.data.name }))
    // The shell re-reads app:info on profile:changed; the session and allowances belong to the new profile.
    load()
    void call('session:get').then((s) => s.ok && setSession(s.data))
    void call('allowance:get').then((a) => a.ok && setAllowances(a.data))
  }

  const onAction = (action: ProfileAction, profile: PublicProfile, el: HTMLElement): void => {
    setNotice(null)
    if (action === 'select') return void select(profile)
    opener.current = el
    setPanel({ kind: action, profile })
  }

  const openAdd = (): void => {
    setNotice(null)
    opener.current = addButton.current
    setPanel({ kind: 'add' })
  }

  return (
    <section aria-labelledby="settings-profiles" className="card">
      <h3 id="settings-profiles">{t('profiles.title')}</h3>
      {list && <VaultNotice vault={list.vault} />}
      {failure && <ErrorNotice error={failure} />}
      <p role="status" className={notice ? 'alert alert-ok' : 'visually-hidden'}>
        {notice}
      </p>
      {list ? (
        <ProfileTable profiles={list.profiles} activeId={list.activeId} busy={busy} onAction={onAction} />
      ) : (
        !failure && <p>{t('common:app.loading')}</p>
      )}
      {panel?.kind === 'edit' && (
        <EditProfileForm
          key={panel.profile.id}
          profile={panel.profile}
          onSaved={(p) => finish(t('profiles.saved', { name: p.name }))}
          onCancel={closePanel}
        />
      )}
      {panel?.kind === 'credentials' && (
        <CredentialsForm
          key={panel.profile.id}
          profile={panel.profile}
          onSaved={(p) => finish(t('profiles.credentialsSaved', { name: p.name }))}
          onCancel={closePanel}
        />
      )}
      {panel?.kind === 'remove' && (
        <RemoveProfileConfirm
          key={panel.profile.id}
          profile={panel.profile}
          onRemoved={() => {
            opener.current = null
            finish(t('profiles.removed', { name: panel.profile.name }))
          }}
          onCancel={closePanel}
        />
      )}
      {panel?.kind === 'add' ? (
        <AddLiveProfileForm
          onAdded={(p) => finish(t('profiles.added', { name: p.name }))}
          onCancel={closePanel}
        />
      ) : (
        <div className="actions">
          <button type="button" className="btn" ref={addButton} onClick={openAdd}>
            {t('add.open')}
          </button>
        </div>
      )}
    </section>
  )
}
