/**
 * Rejecting a run that another analyst asked this desk to approve (issue #26): like a payment's rejection, it
 * needs a reason, which main audits with the rejection and shows to whoever asked. The reason is kept while the
 * call is refused, so nothing typed is lost.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunDetailView } from '../../../../shared/channels-runs'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { Button } from '../ui/Button'

const REASON_MAX = 500

export function RejectRun({
  runId,
  onChange,
  onError,
}: {
  runId: string
  onChange: (d: RunDetailView) => void
  onError: (e: IpcError) => void
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const id = useId()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [missing, setMissing] = useState(false)
  const [busy, setBusy] = useState(false)

  if (!open) {
    return (
      <Button variant="destructive" onClick={() => setOpen(true)} data-testid="run-reject-open">
        {t('approve.reject')}
      </Button>
    )
  }
  const submit = async (): Promise<void> => {
    const trimmed = reason.trim()
    if (trimmed === '') {
      setMissing(true)
      return
    }
    setBusy(true)
    const r = await call('runs:cancel', { runId, reason: trimmed })
    setBusy(false)
    if (r.ok) onChange(r.data)
    else onError(r.error)
  }
  const reasonId = `${id}-reason`
  return (
    <div className="card" role="group" aria-labelledby={`${id}-title`} data-testid="run-reject">
      <h4 id={`${id}-title`}>{t('approve.rejectTitle')}</h4>
      <p>{t('approve.rejectBody')}</p>
      <div className="field">
        <label htmlFor={reasonId}>{t('approve.reason')}</label>
        <textarea
          id={reasonId}
          value={reason}
          maxLength={REASON_MAX}
          rows={3}
          required
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${reasonId}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value)
            if (e.target.value.trim() !== '') setMissing(false)
          }}
        />
        {missing && (
          <p id={`${reasonId}-error`} className="field-error" role="alert">
            {t('approve.reasonMissing')}
          </p>
        )}
      </div>
      <div className="actions">
        <Button variant="destructive" disabled={busy} onClick={() => void submit()}>
          {t('approve.rejectConfirm')}
        </Button>
        <Button disabled={busy} onClick={() => setOpen(false)}>
          {t('approve.rejectCancel')}
        </Button>
      </div>
    </div>
  )
}
