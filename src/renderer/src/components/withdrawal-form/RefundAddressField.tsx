/**
 * The Liquid address the token returns to if the withdrawal cannot be completed. Required by this app although
 * optional in the API: without it a failed payout waits for a chat with the operator, and it cannot be added later.
 */
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { LiquidCheck } from '../../../../shared/contract'
import { ErrorNotice } from '../ErrorNotice'
import { UseWalletAddress, WalletAddressOwner } from '../wallet/WalletAddress'
import { describedBy, FieldError } from './FieldError'
import type { WithdrawalFormValues } from './form-model'
import type { LiquidCheckState } from './useLiquidCheck'

/** The check's refusal in words: our sentence for its reason, naming both networks when they differ. */
export function useLiquidRefusal(): (
  check: Extract<LiquidCheck, { ok: false }>,
  expected?: string,
) => string {
  const { t, i18n } = useTranslation('withdrawal')
  return (check, expected) => {
    const key = `refund.reasons.${check.reason}`
    if (!i18n.exists(`withdrawal:${key}`)) return check.message
    const label = (n: string | undefined): string =>
      n && i18n.exists(`withdrawal:networks.${n}`) ? t(`networks.${n}`) : (n ?? t('networks.unknown'))
    return t(key, { actual: label(check.actualNetwork), expected: label(expected) })
  }
}

export function RefundAddressField({
  check,
  network,
  defaultRefund,
}: {
  check: LiquidCheckState
  network: string | undefined
  /** The profile's default refund address (issue #14): when the field holds it, a note says so. */
  defaultRefund?: string | undefined
}): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const refusal = useLiquidRefusal()
  const { register, formState, control, setValue } = useFormContext<WithdrawalFormValues>()
  const value = useWatch({ control, name: 'refundAddress' })
  const error = formState.errors.refundAddress?.message
  const refused = check.state === 'done' && !check.check.ok ? check.check : null
  const invalid = !!error || refused !== null

  return (
    <div className="field">
      <label htmlFor="refundAddress">{t('refund.label')}</label>
      <input
        id="refundAddress"
        type="text"
        className="mono"
        autoComplete="off"
        spellCheck={false}
        {...register('refundAddress')}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy(
          'refund-hint',
          'refund-live',
          error && !refused && 'refundAddress-error',
        )}
      />
      <p id="refund-hint" className="field-hint">
        {t('refund.hint')}
      </p>
      <UseWalletAddress
        onAddress={(a) => setValue('refundAddress', a, { shouldDirty: true, shouldValidate: true })}
      />
      <WalletAddressOwner address={value} />
      {defaultRefund && value.trim() === defaultRefund && (
        <p className="field-hint" data-testid="refund-default">
          {t('payees:defaultRefund.prefilled')}
        </p>
      )}
      <div id="refund-live" aria-live="polite">
        {check.state === 'checking' && <p className="field-hint">{t('refund.checking')}</p>}
        {check.state === 'done' && check.check.ok && (
          <p className="field-ok" data-testid="refund-check">
            {t('refund.valid', {
              network: t(`networks.${check.check.network}`),
              kind: t(check.check.confidential ? 'refund.confidential' : 'refund.unconfidential'),
            })}
          </p>
        )}
        {refused && (
          <p className="field-error" data-testid="refund-check" data-reason={refused.reason}>
            {refusal(refused, network)}
          </p>
        )}
        {check.state === 'failed' && <ErrorNotice error={check.error} />}
      </div>
      {/* The check above already says it; the schema's own code matters only when nothing was checked. */}
      {!refused && <FieldError id="refundAddress-error" code={error} />}
    </div>
  )
}
