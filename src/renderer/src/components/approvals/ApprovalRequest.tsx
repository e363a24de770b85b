/**
 * The review step of a payment above the team's limit (quote `needsApproval`): why it goes to another analyst,
 * an optional note for the approver; and, once asked, who must act next. Nothing is sent to the service here.
 */
import { useEffect, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../../shared/channels-team'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { useTeam } from '../../stores/team'
import { amountText } from './approval-model'

const NOTE_MAX = 500

export function ApprovalNeeded({
  note,
  onNote,
  disabled,
}: {
  note: string
  onNote: (note: string) => void
  disabled: boolean
}): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const id = useId()
  const limit = useTeam((s) => s.status?.approvalAboveCents ?? null)
  const refreshStatus = useTeam((s) => s.refreshStatus)
  // The limit named here is the server's now: the owner may have changed it since the status was last read.
  useEffect(() => void refreshStatus(), [refreshStatus])
  return (
    <div className="alert alert-info approval-needed" data-testid="approval-needed">
      <p>
        {limit === null
          ? t('request.neededNoLimit')
          : t('request.needed', { limit: formatBRL(limit, currentLanguage()) })}
      </p>
      <div className="field">
        <label htmlFor={id}>{t('request.note')}</label>
        <textarea
          id={id}
          rows={2}
          maxLength={NOTE_MAX}
          value={note}
          disabled={disabled}
          onChange={(e) => onNote(e.target.value)}
        />
      </div>
    </div>
  )
}

export function ApprovalRequested({
  approval,
  onOpenQueue,
  onAnother,
}: {
  approval: ApprovalView
  onOpenQueue: () => void
  onAnother: () => void
}): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])
  return (
    <section
      className="card alert-ok"
      aria-labelledby="approval-requested-heading"
      data-testid="approval-requested"
    >
      <h3 id="approval-requested-heading" tabIndex={-1} ref={headingRef}>
        {t('requested.title')}
      </h3>
      <p>
        {t('requested.body', { amount: amountText(approval, currentLanguage()), pixKey: approval.pixKey })}
      </p>
      <p data-testid="approval-next">
        <strong>{t('requested.next', { requester: approval.requestedBy })}</strong>
      </p>
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={onOpenQueue}>
          {t('requested.open')}
        </button>
        <button type="button" className="btn" onClick={onAnother}>
          {t('requested.another')}
        </button>
      </div>
    </section>
  )
}
