/**
 * Approve or reject, asked once more with the amount and the Pix key in front of the analyst. Rejecting needs a
 * reason (the requester reads it); the database refuses a decision on one's own request whatever this shows.
 */
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../../shared/channels-team'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ApprovalError } from './ApprovalError'
import { ApprovalFacts } from './ApprovalFacts'
import { useModal } from '../ui/useModal'

export type Decision = 'approve' | 'reject'
const NOTE_MAX = 500

export function DecideDialog({
  approval,
  decision,
  onClose,
  onDecided,
  onRefused,
}: {
  approval: ApprovalView
  decision: Decision
  onClose: () => void
  onDecided: (a: ApprovalView) => void
  onRefused: (error: IpcError) => void
}): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const [note, setNote] = useState('')
  const [missingReason, setMissingReason] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const reject = decision === 'reject'

  useModal(dialog)

  const submit = async (): Promise<void> => {
    const trimmed = note.trim()
    if (reject && trimmed === '') {
      setMissingReason(true)
      return
    }
    setBusy(true)
    setError(null)
    const r = reject
      ? await call('approvals:reject', { id: approval.id, note: trimmed })
      : await call('approvals:approve', { id: approval.id, ...(trimmed ? { note: trimmed } : {}) })
    setBusy(false)
    if (r.ok) onDecided(r.data)
    else {
      setError(r.error)
      onRefused(r.error)
    }
  }

  const noteId = `${id}-note`
  // A top-up's decision is worded as a top-up (nothing is paid out by Pix).
  const words = approval.kind === 'deposit' ? 'topUp.decide' : 'decide'
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      data-testid="decide-dialog"
      onCancel={(e) => {
        e.preventDefault()
        if (!busy) onClose()
      }}
    >
      <h3 id={`${id}-title`}>{t(reject ? `${words}.rejectTitle` : `${words}.approveTitle`)}</h3>
      <ApprovalFacts approval={approval} />
      <p>{t(reject ? `${words}.rejectBody` : `${words}.approveBody`)}</p>
      <div className="field">
        <label htmlFor={noteId}>{t(reject ? 'decide.reason' : 'decide.note')}</label>
        <textarea
          id={noteId}
          value={note}
          maxLength={NOTE_MAX}
          rows={3}
          required={reject}
          aria-invalid={missingReason || undefined}
          aria-describedby={missingReason ? `${noteId}-error` : undefined}
          onChange={(e) => {
            setNote(e.target.value)
            if (e.target.value.trim() !== '') setMissingReason(false)
          }}
        />
        {missingReason && (
          <p id={`${noteId}-error`} className="field-error" role="alert">
            {t('decide.reasonRequired')}
          </p>
        )}
      </div>
      {error && <ApprovalError error={error} />}
      <div className="actions">
        <button
          type="button"
          className={reject ? 'btn btn-danger' : 'btn btn-primary'}
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => void submit()}
        >
          {busy ? t('decide.busy') : t(reject ? `${words}.confirmReject` : `${words}.confirmApprove`)}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={onClose}>
          {t('decide.cancel')}
        </button>
      </div>
    </dialog>
  )
}
