/** A record of an opened export, read only: the detail page's parts without actions or a status history. */
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { LiquidNetwork } from '../../../../shared/profile'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { shortId } from '../records-table/columns'
import { PayoutInfo } from './PayoutInfo'
import { RecordSummary } from './RecordSummary'
import { RefundInfo } from './RefundInfo'
import { RequestInfo } from './RequestInfo'

export function ReadOnlyRecordPanel({
  record,
  network,
  onClose,
}: {
  record: WithdrawalRecord
  network: LiquidNetwork | undefined
  onClose: () => void
}): React.JSX.Element {
  const { t } = useTranslation(['review', 'detail'])
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    heading.current?.focus()
  }, [record.localId])
  return (
    <section
      className="card record-panel"
      aria-labelledby="review-record-title"
      data-testid="review-record-panel"
    >
      <div className="page-head">
        <h3 id="review-record-title" ref={heading} tabIndex={-1}>
          {t('panel.heading', { id: shortId(record.localId) })}
        </h3>
        <button type="button" className="btn btn-small" onClick={onClose}>
          {t('panel.close')}
        </button>
      </div>
      <p className="field-hint">{t('panel.readOnly')}</p>
      <RecordSummary record={record} />
      <h4>{t('detail:sections.payout')}</h4>
      <PayoutInfo record={record} network={network} readOnly />
      {record.refund && (
        <>
          <h4>{t('detail:sections.refund')}</h4>
          <RefundInfo refund={record.refund} network={network} />
        </>
      )}
      <h4>{t('detail:sections.request')}</h4>
      <RequestInfo record={record} />
    </section>
  )
}
