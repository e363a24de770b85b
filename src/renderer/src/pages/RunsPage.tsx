/**
 * Payment runs: import a spreadsheet, review and approve it, create it in waves, fund each wave from its sheet,
 * follow every row to paid or refunded. The page re-reads the open run on `run:changed` and on withdrawal
 * changes (the tracker's statuses move its progress).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
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
import { RunStateChip } from '../components/runs/RunStateChip'
import { useRunProgress } from '../components/runs/useRunProgress'
import { DataTable } from '../components/ui/DataTable'
import { EmptyState } from '../components/ui/EmptyState'
import { call, useEvent } from '../ipc'
import { PageHeader } from '../components/ui/PageHeader'

/**
 * The run's name and where it stands. `focusOnShow`: the heading takes the focus when it appears (a run just
 * imported or opened from the list), so a keyboard or screen-reader user lands on the run, not back at the top.
 */
export function RunHeading({
  detail,
  focusOnShow = false,
}: {
  detail: RunDetailView
  focusOnShow?: boolean
}): React.JSX.Element {
  const { run, progress } = detail
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (focusOnShow) ref.current?.focus()
  }, [focusOnShow, run.runId])
  return (
    <h3 className="run-heading" ref={ref} tabIndex={-1} data-testid="run-heading">
      <span>{run.name}</span> <RunStateChip run={run} progress={progress} testId="run-settlement" />
    </h3>
  )
}

export function RunsPage({ runId }: { runId?: string | undefined } = {}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const [list, setList] = useState<RunRecord[]>([])
  const progress = useRunProgress(list)
  const [open, setOpen] = useState<string | null>(runId ?? null)
  // A run the analyst just imported, picked, or opened from Aprovações: its heading takes the focus once it shows.
  const [picked, setPicked] = useState(runId !== undefined)
  const openRun = (id: string): void => {
    setPicked(true)
    setOpen(id)
  }
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
      <PageHeader title={t('title')} lead={t('intro')} />
      <ImportPanel onImported={openRun} />
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
                  <button type="button" className="btn-link" onClick={() => openRun(r.runId)}>
                    {r.name}
                  </button>
                ),
              },
              { id: 'rows', header: t('list.rows'), numeric: true, cell: (r) => r.rowCount },
              {
                id: 'state',
                header: t('list.state'),
                cell: (r) => <RunStateChip run={r} progress={progress.get(r.runId)} testId="run-state" />,
              },
              { id: 'createdAt', header: t('list.createdAt'), cell: (r) => <DateTime iso={r.createdAt} /> },
            ]}
          />
        )}
      </section>
      {error && <RunErrorNotice error={error} />}
      {detail && detail.run.runId === open && (
        <div data-testid="run-detail" data-state={detail.run.state}>
          <RunHeading detail={detail} focusOnShow={picked} />
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
