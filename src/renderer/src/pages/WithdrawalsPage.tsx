/** Retiradas: every withdrawal in the ledger, filtered, sorted and totalled; a row opens its detail. */
import { useTranslation } from 'react-i18next'
import { RecordsTable } from '../components/records-table/RecordsTable'
import { useRoute } from '../stores/route'

export function WithdrawalsPage(): React.JSX.Element {
  const { t } = useTranslation('list')
  const go = useRoute((s) => s.go)
  return (
    <section className="page page-withdrawals" aria-labelledby="withdrawals-title">
      <div className="page-head">
        <h2 id="withdrawals-title">{t('title')}</h2>
        <button type="button" className="btn btn-primary" onClick={() => go({ page: 'newWithdrawal' })}>
          {t('newWithdrawal')}
        </button>
      </div>
      <RecordsTable
        tableId="withdrawals"
        source="withdrawals:list"
        live
        onOpen={(record) => go({ page: 'detail', localId: record.localId })}
      />
    </section>
  )
}
