/**
 * Ledger backups (taken before every migration, daily, and before a restore; the newest 7 are kept) and the way
 * back to one of them. A restore first backs up the current ledger (main does it) and needs an explicit second
 * click naming the backup; the window then reloads, since every list it shows came from the replaced file.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError, LedgerBackup } from '../../../../shared/contract'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { formatDateTime } from '../format'

export function BackupsSection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const lang = currentLanguage()
  const [backups, setBackups] = useState<LedgerBackup[] | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    void call('ledger:backups').then((r) => {
      if (!live) return
      if (r.ok) setBackups(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [])

  const restore = async (name: string): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('ledger:restore', { name, confirm: true })
    setBusy(false)
    setConfirming(null)
    if (!r.ok) {
      setError(r.error)
      return
    }
    window.location.reload()
  }

  return (
    <section aria-labelledby="settings-backups" className="card" data-testid="backups-section">
      <h3 id="settings-backups">{t('backups.title')}</h3>
      <p className="field-hint">{t('backups.intro')}</p>
      {error && <ErrorNotice error={error} />}
      {backups?.length === 0 && <p>{t('backups.none')}</p>}
      {backups && backups.length > 0 && (
        <table className="data data-grid">
          <caption className="visually-hidden">{t('backups.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('backups.when')}</th>
              <th scope="col">{t('backups.reason')}</th>
              <th scope="col">{t('backups.size')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('backups.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {backups.map((b) => (
              <tr key={b.name}>
                <td>{formatDateTime(b.createdAt, lang)}</td>
                <td>{t(`backups.reasons.${b.reason}`)}</td>
                <td>{(b.sizeBytes / 1_048_576).toFixed(1)} MB</td>
                <td>
                  {confirming === b.name ? (
                    <span role="group" aria-label={t('backups.confirmTitle')}>
                      <strong>{t('backups.confirm', { when: formatDateTime(b.createdAt, lang) })}</strong>{' '}
                      <button
                        type="button"
                        className="btn btn-danger btn-small"
                        disabled={busy}
                        onClick={() => void restore(b.name)}
                      >
                        {t('backups.confirmYes')}
                      </button>{' '}
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={busy}
                        onClick={() => setConfirming(null)}
                      >
                        {t('actions.cancel')}
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={busy}
                      onClick={() => setConfirming(b.name)}
                    >
                      {t('backups.restore')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
