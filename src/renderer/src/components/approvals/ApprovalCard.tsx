/**
 * One approval in the queue and what this desk may do with it: decide another analyst's request, wait on its
 * own, send an approved payment (once: the button stays busy until main answers; nothing is ever re-sent).
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../../shared/channels-team'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ApprovalError } from './ApprovalError'
import { ApprovalFacts } from './ApprovalFacts'
import { actionFor } from './approval-model'
import type { Decision } from './DecideDialog'

export function ApprovalCard({
  approval: a,
  onDecide,
  onSent,
  onRefused,
  focusHeading = false,
}: {
  approval: ApprovalView
  onDecide: (a: ApprovalView, decision: Decision) => void
  /** The payment or top-up exists now (sent, or its outcome is unknown): its record's detail page takes over. */
  onSent: (localId: string, kind: ApprovalView['kind']) => void
  onRefused: (error: IpcError) => void
  /**
   * Just decided here: the buttons the focus was on are gone, so the heading (which now names the new state) takes
   * the focus; the next Tab reaches what can be done now ("Enviar pagamento aprovado").
   */
  focusHeading?: boolean
}): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus()
  }, [focusHeading, a.state])
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  // State updates are asynchronous; the ref closes the gap in which a second click could send twice.
  const inFlight = useRef(false)
  const action = actionFor(a)
  const headingId = `approval-${a.id}-heading`
  const topUp = a.kind === 'deposit'

  const send = async (): Promise<void> => {
    if (inFlight.current) return
    inFlight.current = true
    setSending(true)
    setError(null)
    const r = await call('approvals:send', { id: a.id })
    if (r.ok) return onSent(r.data.localId, a.kind)
    // The POST went out and its answer was lost: the journaled record says what is known; never send again.
    if (r.error.code === 'outcome_unknown') return onSent(a.localId, a.kind)
    inFlight.current = false
    setSending(false)
    setError(r.error)
    onRefused(r.error)
  }

  return (
    <article
      className={`card approval approval-${a.state}`}
      aria-labelledby={headingId}
      data-testid="approval-card"
      data-approval-id={a.id}
      data-state={a.state}
      data-kind={a.kind}
    >
      <h3 id={headingId} className="approval-heading" ref={headingRef} tabIndex={-1}>
        <span className={`approval-state approval-state-${a.state}`}>{t(`state.${a.state}`)}</span>
      </h3>
      <ApprovalFacts approval={a} />
      {action === 'wait' && (
        <p className="approval-wait" data-testid="approval-wait">
          {t('waitOther')}
        </p>
      )}
      {action === 'send' && <p>{t(topUp ? 'topUp.approvedReady' : 'approvedReady')}</p>}
      {error && <ApprovalError error={error} />}
      <div className="actions">
        {action === 'decide' && (
          <>
            <button type="button" className="btn btn-primary" onClick={() => onDecide(a, 'approve')}>
              {t('approve')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => onDecide(a, 'reject')}>
              {t('reject')}
            </button>
          </>
        )}
        {action === 'send' && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={sending}
            aria-busy={sending || undefined}
            onClick={() => void send()}
          >
            {topUp ? t(sending ? 'topUp.sending' : 'topUp.send') : t(sending ? 'sending' : 'send')}
          </button>
        )}
      </div>
    </article>
  )
}
