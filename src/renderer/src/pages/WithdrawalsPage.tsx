/** Retiradas: every withdrawal in the ledger, filtered, sorted and totalled; a row opens its detail. */
import { useTranslation } from 'react-i18next'
import { RecordsTable } from '../components/records-table/RecordsTable'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

export function WithdrawalsPage(): React.JSX.Element {
  const { t } = useTranslation('list')
  const go = useRoute((s) => s.go)
  return (
    <section className="page page-withdrawals" aria-labelledby="withdrawals-title">
      <PageHeader
        id="withdrawals-title"
        title={t('title')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => go({ page: 'newWithdrawal' })}>
            {t('newWithdrawal')}
          </button>
        }
      />
      <RecordsTable
        tableId="withdrawals"
        source="withdrawals:list"
        live
        onOpen={(record) => go({ page: 'detail', localId: record.localId })}
      />
    </section>
  )
}
