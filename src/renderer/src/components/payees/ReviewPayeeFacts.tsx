/** The review's lines about the payee from the book and the references: what the record will keep with the payment. */
import { useTranslation } from 'react-i18next'
import type { ExpectedPayee } from '../../../../shared/payee'
import type { PaymentReferences } from '../../../../shared/payment-references'
import { maskTaxId } from '../../../../shared/tax-id'
import { ReferencesText } from './ReferencesText'

export function ReviewPayeeFacts({
  payee,
  references,
}: {
  payee: ExpectedPayee | null
  references: PaymentReferences | undefined
}): React.JSX.Element {
  const { t } = useTranslation('payees')
  const hasRefs = references !== undefined && Object.values(references).some((v) => (v ?? '').trim() !== '')
  return (
    <>
      {payee && (
        <>
          <dt>{t('review.payee')}</dt>
          <dd data-testid="review-payee">
            {payee.name} <span className="mono">({maskTaxId(payee.taxNumber)})</span>
          </dd>
        </>
      )}
      {hasRefs && (
        <>
          <dt>{t('review.references')}</dt>
          <dd data-testid="review-references">
            <ReferencesText references={references} />
          </dd>
        </>
      )}
    </>
  )
}
