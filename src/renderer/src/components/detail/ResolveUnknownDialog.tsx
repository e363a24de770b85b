/**
 * Resolving an `outcome_unknown` record: the create request left and no answer came back, so the withdrawal may
 * exist. Nothing is resent; the operator asks support and either links the withdrawal id support gives or
 * declares the request not created. Two steps (choose, then confirm), and main writes the decision to the audit log.
 */
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useId, useRef, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { IpcError } from '../../../../shared/contract'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { call } from '../../ipc'
import { CopyButton } from '../CopyButton'
import { ErrorNotice } from '../ErrorNotice'
import { Brl, DateTime } from '../format'
import { useModal } from '../ui/useModal'

export const resolveFormSchema = z
  .object({ choice: z.enum(['link', 'notCreated']), withdrawalId: z.string().max(200) })
  .superRefine((v, ctx) => {
    if (v.choice === 'link' && v.withdrawalId.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['withdrawalId'], message: 'required' })
    }
  })
export type ResolveForm = z.infer<typeof resolveFormSchema>

/** The contract's resolution from the form. */
export function toResolution(v: ResolveForm): { withdrawalId: string } | { notCreated: true } {
  return v.choice === 'link' ? { withdrawalId: v.withdrawalId.trim() } : { notCreated: true }
}

export interface ResolveUnknownDialogProps {
  record: WithdrawalRecord
  onClose: () => void
  onResolved: (record: WithdrawalRecord, how: 'linked' | 'notCreated') => void
}

export function ResolveUnknownDialog({
  record,
  onClose,
  onResolved,
}: ResolveUnknownDialogProps): React.JSX.Element {
  const { t } = useTranslation('detail')
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const confirmHeading = useRef<HTMLHeadingElement>(null)
  const [step, setStep] = useState<'choose' | 'confirm'>('choose')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const form = useForm<ResolveForm>({
    resolver: zodResolver(resolveFormSchema),
    defaultValues: { choice: 'link', withdrawalId: '' },
  })
  const choice = useWatch({ control: form.control, name: 'choice' })
  const fieldError = form.formState.errors.withdrawalId?.message

  useModal(dialog)
  useEffect(() => {
    if (step === 'confirm') confirmHeading.current?.focus()
  }, [step])

  const submit = async (): Promise<void> => {
    const values = form.getValues()
    setBusy(true)
    setError(null)
    const r = await call('withdrawals:resolveUnknown', {
      localId: record.localId,
      resolution: toResolution(values),
    })
    setBusy(false)
    if (r.ok) {
      onResolved(r.data, values.choice === 'link' ? 'linked' : 'notCreated')
      return
    }
    setError(r.error)
    const fieldCode = Object.entries(r.error.fields ?? {}).find(([k]) => k.endsWith('withdrawalId'))?.[1]
    if (fieldCode) {
      form.setError('withdrawalId', { message: fieldCode })
      setStep('choose')
    }
  }

  const values = form.getValues()
  const withdrawalIdId = `${id}-wid`
  const describedBy = [`${withdrawalIdId}-hint`, fieldError ? `${withdrawalIdId}-error` : '']
    .filter(Boolean)
    .join(' ')

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      data-testid="resolve-dialog"
      onCancel={(e) => {
        e.preventDefault()
        if (!busy) onClose()
      }}
    >
      <h3 id={`${id}-title`}>{t('resolve.title')}</h3>
      <div className="alert alert-warn">
        <p>{t('resolve.what')}</p>
        <p>
          <strong>{t('resolve.never')}</strong>
        </p>
      </div>
      <p>{t('resolve.ask')}</p>
      <dl>
        <dt>{t('resolve.requestId')}</dt>
        <dd>
          {record.requestId ? (
            <>
              <code className="mono" data-testid="resolve-request-id">
                {record.requestId}
              </code>{' '}
              <CopyButton text={record.requestId} />
            </>
          ) : (
            t('resolve.noRequestId')
          )}
        </dd>
        <dt>{t('facts.pixKey')}</dt>
        <dd className="mono">{record.pixKey}</dd>
        <dt>{t('facts.requested')}</dt>
        <dd>
          <Brl cents={record.amountCents} /> ({t(`amountKind.${record.amountKind}`)})
        </dd>
        <dt>{t('facts.createdAt')}</dt>
        <dd>
          <DateTime iso={record.createdAt} />
        </dd>
      </dl>

      {step === 'choose' ? (
        <form noValidate onSubmit={(e) => void form.handleSubmit(() => setStep('confirm'))(e)}>
          <p>{t('resolve.then')}</p>
          <fieldset className="field">
            <legend>{t('resolve.choice')}</legend>
            <label className="check">
              <input type="radio" value="link" {...form.register('choice')} /> {t('resolve.link')}
            </label>
            <label className="check">
              <input type="radio" value="notCreated" {...form.register('choice')} /> {t('resolve.notCreated')}
            </label>
          </fieldset>
          {choice === 'link' && (
            <div className="field">
              <label htmlFor={withdrawalIdId}>{t('resolve.withdrawalId')}</label>
              <input
                id={withdrawalIdId}
                className="mono"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={describedBy}
                {...form.register('withdrawalId')}
              />
              <span id={`${withdrawalIdId}-hint`} className="field-hint">
                {t('resolve.withdrawalIdHint')}
              </span>
              {fieldError && (
                <span id={`${withdrawalIdId}-error`} className="field-error">
                  {fieldError === 'required' ? t('resolve.withdrawalIdRequired') : <code>{fieldError}</code>}
                </span>
              )}
            </div>
          )}
          {error && <ErrorNotice error={error} />}
          <div className="actions">
            <button type="submit" className="btn btn-primary">
              {t('resolve.continue')}
            </button>
            <button type="button" className="btn" onClick={onClose}>
              {t('resolve.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="resolve-confirm">
          <h4 ref={confirmHeading} tabIndex={-1}>
            {t('resolve.confirmTitle')}
          </h4>
          <p className={values.choice === 'notCreated' ? 'alert alert-error' : 'alert alert-info'}>
            {values.choice === 'link'
              ? t('resolve.confirmLink', { localId: record.localId, id: values.withdrawalId.trim() })
              : t('resolve.confirmNotCreated', { localId: record.localId })}
          </p>
          <p>{t('resolve.audited')}</p>
          {error && <ErrorNotice error={error} />}
          <div className="actions">
            <button
              type="button"
              className={values.choice === 'link' ? 'btn btn-primary' : 'btn btn-danger'}
              disabled={busy}
              onClick={() => void submit()}
            >
              {busy
                ? t('resolve.working')
                : values.choice === 'link'
                  ? t('resolve.doLink')
                  : t('resolve.doNotCreated')}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => setStep('choose')}>
              {t('resolve.back')}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={onClose}>
              {t('resolve.cancel')}
            </button>
          </div>
        </div>
      )}
    </dialog>
  )
}
