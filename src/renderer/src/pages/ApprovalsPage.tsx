/**
 * Aprovações (issue #16, team ledger only): the four-eyes queue, oldest request first. Other analysts' requests
 * are approved or rejected here; this desk's own wait; approved ones are sent from here and open as records.
 * Payment runs waiting for another analyst are listed too; "Abrir lote" opens the run, approved on its own screen.
 * Loaded on first visit (App.tsx): only a team's desks ever see it.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../shared/channels-team'
import type { IpcError } from '../../../shared/contract'
import { ApprovalCard } from '../components/approvals/ApprovalCard'
import { ApprovalError } from '../components/approvals/ApprovalError'
import { queueCount } from '../components/approvals/run-approval-model'
import { RunApprovalCard } from '../components/approvals/RunApprovalCard'
import { DecideDialog, type Decision } from '../components/approvals/DecideDialog'
import { useRoute } from '../stores/route'
import { useTeam } from '../stores/team'
import { PageHeader } from '../components/ui/PageHeader'

/** Refusals after which the queue on screen is stale: ask main for it again. */
const STALE = new Set(['approval_decided', 'not_found', 'approval_self'])

export function ApprovalsPage(): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const go = useRoute((s) => s.go)
  const approvals = useTeam((s) => s.approvals)
  const runs = useTeam((s) => s.runs)
  const listError = useTeam((s) => s.listError)
  const refreshList = useTeam((s) => s.refreshList)
  const changed = useTeam((s) => s.changed)
  const [loaded, setLoaded] = useState(false)
  const [deciding, setDeciding] = useState<{ approval: ApprovalView; decision: Decision } | null>(null)
  // The approval decided here last: its card takes the focus back from the closed dialog.
  const [decidedId, setDecidedId] = useState<string | null>(null)

  useEffect(() => {
    void refreshList().then(() => setLoaded(true))
  }, [refreshList])

  const refused = (error: IpcError): void => {
    if (STALE.has(error.code)) void refreshList()
  }
  const count = queueCount(approvals, runs)

  return (
    <div className="page">
      <PageHeader id="approvals-heading" title={t('title')} lead={t('intro')} />
      {count > 0 && (
        <p data-testid="approvals-count">
          <strong>{t('count', { count })}</strong>
        </p>
      )}
      {listError && <ApprovalError error={listError} />}
      {!loaded && approvals.length === 0 && runs.length === 0 && <p aria-live="polite">{t('loading')}</p>}
      {loaded && approvals.length === 0 && runs.length === 0 && !listError && (
        <p data-testid="approvals-empty">{t('empty')}</p>
      )}
      {runs.length > 0 && (
        <section aria-labelledby="approvals-runs-heading">
          <h3 id="approvals-runs-heading">{t('runs.heading')}</h3>
          <div className="approval-list" aria-labelledby="approvals-runs-heading" role="list">
            {runs.map((r) => (
              <div role="listitem" key={r.runId}>
                <RunApprovalCard run={r} onOpen={(runId) => go({ page: 'runs', runId })} />
              </div>
            ))}
          </div>
        </section>
      )}
      <div className="approval-list" aria-labelledby="approvals-heading" role="list">
        {approvals.map((a) => (
          <div role="listitem" key={a.id}>
            <ApprovalCard
              approval={a}
              onDecide={(approval, decision) => setDeciding({ approval, decision })}
              onSent={(localId, kind) => {
                changed({ ...a, state: 'sent' }, false)
                go(kind === 'deposit' ? { page: 'depositDetail', localId } : { page: 'detail', localId })
              }}
              onRefused={refused}
              focusHeading={a.id === decidedId}
            />
          </div>
        ))}
      </div>
      {deciding && (
        <DecideDialog
          approval={deciding.approval}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
          onDecided={(a) => {
            changed(a, false)
            setDecidedId(a.id)
            setDeciding(null)
          }}
          onRefused={refused}
        />
      )}
    </div>
  )
}
