/**
 * Alert shown on every page while the ledger's audit trail does not check out (main verifies it at start-up in
 * the background and after a restore, and pushes 'ledger:integrity'). Asked once on mount too, in case the
 * check finished before this window subscribed.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LedgerIntegrity } from '../../../shared/contract'
import { call, useEvent } from '../ipc'

export function IntegrityBanner(): React.JSX.Element | null {
  const { t } = useTranslation('settings')
  const [status, setStatus] = useState<LedgerIntegrity | null>(null)
  useEvent('ledger:integrity', setStatus)
  useEffect(() => {
    let live = true
    void call('ledger:integrity').then((r) => {
      if (live && r.ok) setStatus((s) => s ?? r.data)
    })
    return () => {
      live = false
    }
  }, [])
  if (status?.state !== 'broken' && status?.state !== 'error') return null
  // The team ledger lives on a server: its words name whoever runs it, never a backup of this computer.
  const k = status.ledger === 'team' ? 'integrity.team' : 'integrity'
  return (
    <div
      className="banner alert alert-error"
      role="alert"
      data-testid="integrity-banner"
      data-ledger={status.ledger ?? 'desk'}
    >
      <p className="alert-title">{t(status.state === 'broken' ? `${k}.broken` : `${k}.error`)}</p>
      {status.reason && (
        <p>
          {t('integrity.detail')}: <code>{status.reason}</code>
        </p>
      )}
      <p>{t(`${k}.action`)}</p>
    </div>
  )
}
