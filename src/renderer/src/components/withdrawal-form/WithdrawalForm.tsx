/**
 * The withdrawal form. It validates what will be sent (the shared draft schema, through the form's resolver) and
 * the refund address against the network (main's `liquid:check`); only then does it ask for a review.
 * Errors never clear anything typed.
 */
import { useEffect, useRef } from 'react'
import { useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { currentLanguage } from '../../i18n'
import { ErrorNotice } from '../ErrorNotice'
import { PayeePicker } from '../payees/PayeePicker'
import { ReferencesFields } from '../payees/ReferencesFields'
import { RepeatNotice } from '../payees/RepeatNotice'
import { AmountField } from './AmountField'
import { BeneficiaryFields } from './BeneficiaryFields'
import { describeCode, type WithdrawalFormValues } from './form-model'
import { PixKeyField } from './PixKeyField'
import { RefundAddressField } from './RefundAddressField'
import type { LiquidCheckState } from './useLiquidCheck'

interface Props {
  liquid: LiquidCheckState
  network: string | undefined
  /** The profile's default refund address, when the field holds it (a note says it was prefilled). */
  defaultRefund?: string | undefined
  quoting: boolean
  error: IpcError | null
  /** Refusals main attached to no field the form shows, as codes. */
  otherCodes: string[]
  onReview: (values: WithdrawalFormValues) => void
}

export function WithdrawalForm({
  liquid,
  network,
  defaultRefund,
  quoting,
  error,
  otherCodes,
  onReview,
}: Props): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const { handleSubmit, setFocus } = useFormContext<WithdrawalFormValues>()
  const lang = currentLanguage()
  const errorRef = useRef<HTMLDivElement>(null)
  // A refusal from main is announced (role=alert) and takes focus, so keyboard users land on it.
  useEffect(() => {
    if (error) errorRef.current?.focus()
  }, [error])

  const submit = handleSubmit((values) => {
    // A refund address main refused (wrong network, checksum…) stops here even though its text is well formed.
    if (liquid.state === 'done' && !liquid.check.ok) {
      setFocus('refundAddress')
      return
    }
    onReview(values)
  })

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-labelledby="new-withdrawal-heading">
      {error && (
        <div data-testid="form-error" tabIndex={-1} ref={errorRef}>
          <ErrorNotice error={error} />
          {otherCodes.length > 0 && (
            <ul className="field-error">
              {otherCodes.map((c) => (
                <li key={c}>{describeCode(c, lang)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <RepeatNotice />
      <PayeePicker />
      <PixKeyField />
      <BeneficiaryFields />
      <AmountField />
      <RefundAddressField check={liquid} network={network} defaultRefund={defaultRefund} />
      <ReferencesFields />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={quoting} aria-busy={quoting || undefined}>
          {quoting ? t('form.quoting') : t('form.review')}
        </button>
      </div>
    </form>
  )
}
