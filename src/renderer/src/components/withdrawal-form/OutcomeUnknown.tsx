/**
 * The create was sent and no definitive answer came back: the withdrawal may exist at the service. Nothing is
 * resent automatically (a resend could pay twice); the operator resolves the record on its detail page.
 */
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { useRoute } from '../../stores/route'
import { CopyButton } from '../CopyButton'

export function OutcomeUnknown({
  record,
  requestId,
  onBack,
}: {
  record: WithdrawalRecord | null
  requestId: string | null
  onBack: () => void
}): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const go = useRoute((s) => s.go)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => ref.current?.focus(), [])
  const id = record?.requestId ?? requestId

  return (
    <div className="alert alert-warn" role="alert" tabIndex={-1} ref={ref} data-testid="outcome-unknown">
      <p className="alert-title">{t('unknown.title')}</p>
      <p>{t('unknown.explain')}</p>
      <p>{t('unknown.noResend')}</p>
      {id && (
        <p>
          {t('unknown.requestId')}: <code data-testid="request-id">{id}</code> <CopyButton text={id} />
        </p>
      )}
      <div className="actions">
        {record ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => go({ page: 'detail', localId: record.localId })}
          >
            {t('unknown.openRecord')}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => go({ page: 'withdrawals' })}>
            {t('unknown.openList')}
          </button>
        )}
        <button type="button" className="btn" onClick={onBack}>
          {t('unknown.backToForm')}
        </button>
      </div>
    </div>
  )
}
