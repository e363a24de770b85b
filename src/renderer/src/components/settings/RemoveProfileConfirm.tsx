/** Asks once more before a profile and its saved secret are deleted; focus starts on the safe choice. */
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { PublicProfile } from '../../../../shared/profile'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { withProfileMessage } from './logic'

export function RemoveProfileConfirm({
  profile,
  onRemoved,
  onCancel,
}: {
  profile: PublicProfile
  onRemoved: () => void
  onCancel: () => void
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  const id = useId()
  const cancelRef = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<IpcError | null>(null)

  useEffect(() => cancelRef.current?.focus(), [])

  const remove = async (): Promise<void> => {
    setBusy(true)
    setFailure(null)
    const r = await call('profiles:remove', { id: profile.id })
    setBusy(false)
    if (r.ok) onRemoved()
    else setFailure(withProfileMessage(r.error))
  }

  return (
    <div
      className="card alert-warn"
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <h4 id={`${id}-title`}>{t('remove.title', { name: profile.name })}</h4>
      <p id={`${id}-body`}>{t('remove.body')}</p>
      {failure && <ErrorNotice error={failure} />}
      <div className="actions">
        <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void remove()}>
          {t('remove.confirm')}
        </button>
        <button type="button" className="btn" ref={cancelRef} onClick={onCancel}>
          {t('actions.cancel')}
        </button>
      </div>
    </div>
  )
}
