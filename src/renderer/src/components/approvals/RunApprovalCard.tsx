/**
 * A payment run waiting for another analyst's approval, in the Aprovações queue: what, how many payments, the
 * total, who asked and when. "Abrir lote" opens the run's screen, where it is approved (the typed total) or
 * rejected with a reason: the queue never decides a run.
 */
import { useTranslation } from 'react-i18next'
import type { RunApprovalItem } from '../../../../shared/run-approval'
import { currentLanguage } from '../../i18n'
import { DateTime } from '../format'
import { SafeText } from '../SafeText'
import { runActionFor, runTotalText } from './run-approval-model'

export function RunApprovalCard({
  run: r,
  onOpen,
}: {
  run: RunApprovalItem
  onOpen: (runId: string) => void
}): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const action = runActionFor(r)
  const headingId = `run-approval-${r.runId}-heading`
  return (
    <article
      className="card approval approval-pending"
      aria-labelledby={headingId}
      data-testid="run-approval-card"
      data-run-id={r.runId}
    >
      <h3 id={headingId} className="approval-heading">
        <span className="approval-state approval-state-pending">{t('runs.state')}</span>{' '}
        <span data-testid="run-approval-name">
          <SafeText text={r.name} />
        </span>
      </h3>
      <dl className="approval-facts">
        <dt>{t('runs.rows')}</dt>
        <dd className="num" data-testid="run-approval-rows">
          {r.rows}
        </dd>
        <dt>{t('runs.total')}</dt>
        <dd>
          <strong className="num" data-testid="run-approval-total">
            {runTotalText(r, currentLanguage())}
          </strong>
        </dd>
        <dt>{t('fields.requester')}</dt>
        <dd>{r.mine ? t('me', { name: r.requestedBy }) : r.requestedBy}</dd>
        <dt>{t('fields.requestedAt')}</dt>
        <dd>
          <DateTime iso={r.requestedAt} />
        </dd>
      </dl>
      <p className={action === 'approve' ? undefined : 'approval-wait'} data-testid="run-approval-hint">
        {t(`runs.${action}`)}
      </p>
      <div className="actions">
        <button
          type="button"
          className={action === 'approve' ? 'btn btn-primary' : 'btn'}
          onClick={() => onOpen(r.runId)}
        >
          {t('runs.open')}
        </button>
      </div>
    </article>
  )
}
