/**
 * "Marcar como conciliada" beside a refund on Hoje (issue #26): one audited mark in the ledger (main's
 * `withdrawals:reconcileRefund`); the line leaves the list once the page reads it again.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { Button } from '../ui/Button'

export function ReconcileRefund({
  localId,
  payee,
  onDone,
  onError,
}: {
  localId: string
  payee: string
  onDone: () => void
  onError: (e: IpcError) => void
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  const [busy, setBusy] = useState(false)
  return (
    <Button
      small
      disabled={busy}
      aria-label={t('today.reconcileFor', { payee })}
      data-testid="today-reconcile"
      onClick={() => {
        setBusy(true)
        void call('withdrawals:reconcileRefund', { localId }).then((r) => {
          setBusy(false)
          if (r.ok) onDone()
          else onError(r.error)
        })
      }}
    >
      {t('today.reconcile')}
    </Button>
  )
}
