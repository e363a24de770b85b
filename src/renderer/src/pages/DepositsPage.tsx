/**
 * "Compras de DePix": the active profile's top-ups, newest first, with totals by meaning (only "DePix recebido"
 * is money that reached the treasury; a MED reversal is its own group), the reconciliation with the service and
 * the payer's daily limit. Imported records say "feita fora do aplicativo" on their row.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositPage } from '../../../shared/channels-deposits'
import type { IpcError } from '../../../shared/contract'
import { ErrorNotice } from '../components/ErrorNotice'
import { DepositExport } from '../components/deposits/DepositExport'
import { DepositTable, DepositTotals } from '../components/deposits/DepositTable'
import { ReconciliationPanel } from '../components/deposits/Reconciliation'
import { UserInfoPanel } from '../components/deposits/UserInfoPanel'
import { depositError } from '../components/deposits/error-text'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

const LIST_LIMIT = 200

export function DepositsPage(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const go = useRoute((s) => s.go)
  const [page, setPage] = useState<DepositPage | null>(null)
  const [error, setError] = useState<IpcError | null>(null)

  const load = useCallback(async (): Promise<void> => {
    const r = await call('deposits:list', { limit: LIST_LIMIT, sort: { field: 'createdAt', dir: 'desc' } })
    if (r.ok) {
      setPage(r.data)
      setError(null)
    } else setError(depositError(r.error))
  }, [])
  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('deposit:changed', () => void load())

  return (
    <div className="page">
      <PageHeader
        title={t('list.title')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => go({ page: 'buyDepix' })}>
            {t('buy.title')}
          </button>
        }
      />
      {error && <ErrorNotice error={error} />}
      {page && <DepositTotals totals={page.totals} />}
      {page && page.rows.length === 0 && <p>{t('list.empty')}</p>}
      {page && page.rows.length > 0 && (
        <DepositTable rows={page.rows} onOpen={(localId) => go({ page: 'depositDetail', localId })} />
      )}
      <ReconciliationPanel onImported={() => void load()} />
      <DepositExport />
      <UserInfoPanel />
    </div>
  )
}
