/** The desktop-notifications switch (issue #14), saved in settings. */
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'

export function NotificationsSection(): React.JSX.Element {
  const { t } = useTranslation('receipts')
  const id = useId()
  const [on, setOn] = useState<boolean | null>(null)
  const [failure, setFailure] = useState<IpcError | null>(null)

  useEffect(() => {
    // A late first answer must not undo a change the operator already made.
    void call('settings:get').then((r) => r.ok && setOn((now) => now ?? r.data.notifications))
  }, [])

  const change = async (notifications: boolean): Promise<void> => {
    setFailure(null)
    const before = on
    // The box follows the click at once; main's answer confirms it, a refusal puts it back.
    setOn(notifications)
    const r = await call('settings:update', { notifications })
    if (!r.ok) {
      setOn(before)
      return setFailure(r.error)
    }
    setOn(r.data.notifications)
  }

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h3 id={`${id}-title`}>{t('notifications.title')}</h3>
      <label>
        <input
          type="checkbox"
          checked={on ?? true}
          disabled={on === null}
          aria-describedby={`${id}-hint`}
          data-testid="notifications-switch"
          onChange={(e) => void change(e.target.checked)}
        />{' '}
        {t('notifications.label')}
      </label>
      <p id={`${id}-hint`} className="muted">
        {t('notifications.hint')}
      </p>
      {failure && <ErrorNotice error={failure} />}
    </section>
  )
}
