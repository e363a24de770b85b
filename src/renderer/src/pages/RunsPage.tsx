/**
 * Payment runs: import a spreadsheet, review and approve it, create it in waves, fund each wave from its sheet,
 * follow every row to paid or refunded. The page re-reads the open run on `run:changed` and on withdrawal
 * changes (the tracker's statuses move its progress).
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunDetailView } from '../../../shared/channels-runs'
import type { IpcError } from '../../../shared/contract'
import type { RunRecord } from '../../../shared/run'
import { DateTime } from '../components/format'
import { ImportPanel } from '../components/runs/ImportPanel'
import { ReportPanel } from '../components/runs/ReportPanel'
import { ReviewPanel } from '../components/runs/ReviewPanel'
import { RowActionsPanel } from '../components/runs/RowActionsPanel'
import { RowsTable } from '../components/runs/RowsTable'
import { RunErrorNotice } from '../components/runs/run-error'
import { SheetPanel } from '../components/runs/SheetPanel'
import { WavePanel } from '../components/runs/WavePanel'
import { runSettlement, runTone } from '../components/runs/run-model'
import { DataTable } from '../components/ui/DataTable'
import { EmptyState } from '../components/ui/EmptyState'
import { StatusChip } from '../components/ui/StatusChip'
import { call, useEvent } from '../ipc'

export function RunHeading({ detail }: { detail: RunDetailView }): React.JSX.Element {
  const { t } = useTranslation('runs')
  const { run, progress } = detail
  const settlement = runSettlement(run.state, progress.counts)
  return (
    <h3 className="run-heading">
      <span>{run.name}</span>{' '}
      <StatusChip tone={runTone(run.state, settlement)} testId="run-settlement">
        {settlement ? t(`settlement.${settlement}`) : t(`state.${run.state}`)}
      </StatusChip>{' '}
      <span className="cell-note">
        {t('settlement.paidOf', { done: progress.paid, total: progress.total })}
      </span>
    </h3>
  )
}

export function RunsPage({ runId }: { runId?: string | undefined } = {}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const [list, setList] = useState<RunRecord[]>([])
  const [open, setOpen] = useState<string | null>(runId ?? null)
  const [detail, setDetail] = useState<RunDetailView | null>(null)
  const [error, setError] = useState<IpcError | null>(null)

  const reloadList = useCallback(async () => {
    const r = await call('runs:list')
    if (r.ok) setList(r.data)
  }, [])
  const reload = useCallback(async (runId: string) => {
    const r = await call('runs:get', { runId })
    if (r.ok) {
      setDetail(r.data)
      setError(null)
    } else setError(r.error)
  }, [])

  // Loaded from a timer, not in the effect's body: the state is set when the answer arrives.
  useEffect(() => {
    const timer = setTimeout(() => void reloadList())
    return () => clearTimeout(timer)
  }, [reloadList])
  useEffect(() => {
    if (!open) return
    const timer = setTimeout(() => void reload(open))
    return () => clearTimeout(timer)
  }, [open, reload])
  useEvent('run:changed', ({ runId }) => {
    void reloadList()
    if (runId === open) void reload(runId)
  })
  useEvent('withdrawal:changed', () => {
    if (open) void reload(open)
  })
  // The next-create countdown and the progress of a creating wave move without an event for every second.
  useEffect(() => {
    if (!open || !detail || detail.run.state !== 'creating') return
    const id = setInterval(() => void reload(open), 1000)
    return () => clearInterval(id)
  }, [open, detail, reload])

  const onDetail = (d: RunDetailView): void => {
    setDetail(d)
    void reloadList()
  }

  return (
    <div className="page">
      <h2>{t('title')}</h2>
      <p>{t('intro')}</p>
      <ImportPanel onImported={(runId) => setOpen(runId)} />
      <section className="card" aria-labelledby="runs-list-heading">
        <h3 id="runs-list-heading">{t('list.heading')}</h3>
        {list.length === 0 ? (
          <EmptyState>{t('list.empty')}</EmptyState>
        ) : (
          <DataTable
            testId="runs-list"
            caption={t('list.heading')}
            rows={list}
            rowKey={(r) => r.runId}
            rowProps={(r) => ({ 'aria-current': r.runId === open ? 'true' : undefined })}
            columns={[
              {
                id: 'name',
                header: t('list.name'),
                truncate: (r) => r.name,
                cell: (r) => (
                  <button type="button" className="btn-link" onClick={() => setOpen(r.runId)}>
                    {r.name}
                  </button>
                ),
              },
              { id: 'rows', header: t('list.rows'), numeric: true, cell: (r) => r.rowCount },
              {
                id: 'state',
                header: t('list.state'),
                cell: (r) => (
                  <StatusChip tone={runTone(r.state, null)} testId="run-state">
                    {t(`state.${r.state}`)}
                  </StatusChip>
                ),
              },
              { id: 'createdAt', header: t('list.createdAt'), cell: (r) => <DateTime iso={r.createdAt} /> },
            ]}
          />
        )}
      </section>
      {error && <RunErrorNotice error={error} />}
      {detail && detail.run.runId === open && (
        <div data-testid="run-detail" data-state={detail.run.state}>
          <RunHeading detail={detail} />
          <ReviewPanel detail={detail} onChange={onDetail} />
          {detail.run.state !== 'draft' && <WavePanel detail={detail} onChange={onDetail} />}
          <SheetPanel detail={detail} onChange={onDetail} />
          <ReportPanel detail={detail} />
          <RowActionsPanel detail={detail} onChange={onDetail} />
          <RowsTable rows={detail.rows} />
        </div>
      )}
    </div>
  )
}
