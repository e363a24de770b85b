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
    void call('settings:get').then((r) => r.ok && setOn(r.data.notifications))
  }, [])

  const change = async (notifications: boolean): Promise<void> => {
    setFailure(null)
    const r = await call('settings:update', { notifications })
    if (!r.ok) return setFailure(r.error)
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
