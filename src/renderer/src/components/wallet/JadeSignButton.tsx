/**
 * "Assinar com a Jade (USB)" (issue #28), next to the file/text route on every profile: the Jade signs the PSET
 * the app built and the operator reviewed, and the signed PSET goes to `onSigned` — the panel's ordinary import
 * (`walletPay:import`: same transaction, same outputs, or refused). LWK is loaded only on this click.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../ui/Alert'
import {
  JadeSignError,
  signWithJade,
  type JadeFailure,
  type JadeSignRequest,
  type JadeStep,
} from './jade/jade-sign'

export function JadeSignButton({
  request,
  disabled,
  onSigned,
}: {
  request: JadeSignRequest
  disabled: boolean
  onSigned: (signedPset: string) => Promise<void>
}): React.JSX.Element {
  const { t } = useTranslation('walletPay')
  const [step, setStep] = useState<JadeStep | null>(null)
  const [failure, setFailure] = useState<{ code: JadeFailure; detail: string } | null>(null)

  const sign = async (): Promise<void> => {
    setFailure(null)
    try {
      const signed = await signWithJade(request, setStep)
      setStep(null)
      await onSigned(signed)
    } catch (e) {
      const code: JadeFailure = e instanceof JadeSignError ? e.code : 'not_responding'
      const cause = e instanceof JadeSignError ? e.cause : e
      // LWK's and the browser's own words, for "Detalhes técnicos" only.
      setFailure({
        code,
        detail: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause ?? ''),
      })
    } finally {
      setStep(null)
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={disabled || step !== null}
        data-testid="wallet-pay-jade"
        onClick={() => void sign()}
      >
        {t('jade.button')}
      </button>
      {step !== null && (
        <p className="muted" role="status" data-testid="wallet-pay-jade-step" data-step={step}>
          {t(`jade.steps.${step}`)}
        </p>
      )}
      {failure !== null && (
        <Alert
          tone="error"
          title={t(`jade.errors.${failure.code}`)}
          testId="wallet-pay-jade-error"
          dataset={{ 'data-error-code': `jade_${failure.code}` }}
          technical={
            <p>
              <code>
                jade_{failure.code}
                {failure.detail ? ` · ${failure.detail}` : ''}
              </code>
            </p>
          }
        />
      )}
    </>
  )
}
