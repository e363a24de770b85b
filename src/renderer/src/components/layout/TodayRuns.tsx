/**
 * Hoje's cards beyond single payments (issue #26): payment runs still moving, and — on a team ledger — what waits
 * for my approval. Each line opens the run or the approvals page. A run whose creation is over ("completed") is
 * still moving while any of its payments is: it stays here as "Em processamento" until its rows settle.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunRecord } from '../../../../shared/run'
import { call, useEvent } from '../../ipc'
import { useRoute } from '../../stores/route'
import { useTeam } from '../../stores/team'
import { queueCount } from '../approvals/run-approval-model'
import { runSettlement } from '../runs/run-model'
import { RunStateChip } from '../runs/RunStateChip'
import { useRunProgress } from '../runs/useRunProgress'

const MOVING: ReadonlyArray<RunRecord['state']> = ['approved', 'creating', 'awaiting_funding', 'paused']
/** Finished runs older than this are not looked at again for Hoje. */
const RECENT_MS = 30 * 86_400_000

export function TodayRuns(): React.JSX.Element {
  const { t } = useTranslation(['layout', 'runs'])
  const go = useRoute((s) => s.go)
  const [runs, setRuns] = useState<RunRecord[] | null>(null)
  const load = useCallback(() => {
    const since = new Date(Date.now() - RECENT_MS).toISOString()
    void call('runs:list').then((r) =>
      setRuns(
        r.ok
          ? r.data.filter(
              (x) => MOVING.includes(x.state) || (x.state === 'completed' && x.updatedAt >= since),
            )
          : [],
      ),
    )
  }, [])
  const progress = useRunProgress(runs ?? [])
  useEffect(() => {
    const timer = setTimeout(load)
    return () => clearTimeout(timer)
  }, [load])
  useEvent('run:changed', load)
  const rows = (runs ?? []).filter((r) => {
    if (MOVING.includes(r.state)) return true
    const p = progress.get(r.runId)
    return p !== undefined && runSettlement(r.state, p.counts) === 'processing'
  })
  return (
    <section className="card today-block" aria-labelledby="today-h-runs" data-testid="today-runs">
      <h3 id="today-h-runs">
        {t('layout:today.runs')} <span className="today-count num">{rows.length}</span>
      </h3>
      {rows.length === 0 ? (
        <p className="field-hint">{t('layout:today.runsEmpty')}</p>
      ) : (
        <ul className="today-lines">
          {rows.map((r) => (
            <li key={r.runId}>
              <button
                type="button"
                className="today-line"
                onClick={() => go({ page: 'runs', runId: r.runId })}
                data-run-id={r.runId}
              >
                <span className="today-payee" title={r.name}>
                  {r.name}
                </span>
                <span className="today-amount num">{t('layout:today.runRows', { count: r.rowCount })}</span>
                <span className="today-when">
                  <RunStateChip run={r} progress={progress.get(r.runId)} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** On a team ledger: how many approvals wait for me (not my own requests), one click to the queue. */
export function TodayApprovals(): React.JSX.Element | null {
  const { t } = useTranslation('layout')
  const go = useRoute((s) => s.go)
  const onTeam = useTeam((s) => s.status?.engine === 'postgres')
  const toAct = useTeam((s) => queueCount(s.approvals, s.runs))
  if (!onTeam) return null
  return (
    <section className="card today-block" aria-labelledby="today-h-approvals" data-testid="today-approvals">
      <h3 id="today-h-approvals">
        {t('today.approvals')} <span className="today-count num">{toAct}</span>
      </h3>
      {toAct === 0 ? (
        <p className="field-hint">{t('today.approvalsEmpty')}</p>
      ) : (
        <button type="button" className="btn btn-primary" onClick={() => go({ page: 'approvals' })}>
          {t('today.approvalsOpen', { count: toAct })}
        </button>
      )}
    </section>
  )
}
