/**
 * Shown in the payment form while it holds a copy of an earlier payment ("Repetir pagamento"): which one, and the
 * previous amount in one click (the amount starts blank on purpose; see prefill.ts).
 */
import { useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { formatDateTime } from '../format'
import type { WithdrawalFormValues } from '../withdrawal-form/form-model'
import { useRepeat } from './repeat-store'

export function RepeatNotice(): React.JSX.Element | null {
  const { t } = useTranslation('payees')
  const from = useRepeat((s) => s.from)
  const form = useFormContext<WithdrawalFormValues>()
  if (!from) return null
  const lang = currentLanguage()
  const amount = formatBRL(from.cents, lang)
  return (
    <div className="alert alert-info" role="status" data-testid="repeat-notice">
      <p>{t('repeat.notice', { amount, date: formatDateTime(from.createdAt, lang) })}</p>
      <div className="actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="repeat-same-amount"
          onClick={() => {
            form.setValue('amountKind', from.amountKind, { shouldDirty: true })
            form.setValue('amountCents', from.cents, { shouldDirty: true, shouldValidate: true })
          }}
        >
          {t('repeat.useSame', { amount })}
        </button>
        <button type="button" className="btn btn-small" onClick={() => useRepeat.getState().set(null)}>
          {t('repeat.dismiss')}
        </button>
      </div>
    </div>
  )
}
