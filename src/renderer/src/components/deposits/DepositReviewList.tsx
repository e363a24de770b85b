/** The records of an opened deposit export (offline review): read from the review's throwaway ledger. */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositPage } from '../../../../shared/channels-deposits'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { DepositTable, DepositTotals } from './DepositTable'
import { depositError } from './error-text'

export function DepositReviewList(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const [page, setPage] = useState<DepositPage | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  useEffect(() => {
    void call('deposits:reviewList', { limit: 500, sort: { field: 'createdAt', dir: 'desc' } }).then((r) => {
      if (r.ok) setPage(r.data)
      else setError(depositError(r.error))
    })
  }, [])
  return (
    <div data-testid="deposit-review">
      {error && <ErrorNotice error={error} />}
      {page && <DepositTotals totals={page.totals} />}
      {page && page.rows.length === 0 && <p>{t('list.empty')}</p>}
      {page && page.rows.length > 0 && <DepositTable rows={page.rows} />}
    </div>
  )
}
