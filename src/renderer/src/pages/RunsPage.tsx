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
import { Button } from '../components/ui/Button'
import { Toolbar } from '../components/ui/Toolbar'

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
  const [detail, setDetail] = useState<RunDetailView | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  // The last import listed refused lines: they stay above the run it opened (see the page's order below).
  const [importIssues, setImportIssues] = useState(false)
  const openRun = (id: string): void => {
    setPicked(true)
    setOpen(id)
  }
  const pickRun = (id: string): void => {
    setImportIssues(false)
    openRun(id)
  }
  const closeRun = (): void => {
    setImportIssues(false)
    setPicked(false)
    setOpen(null)
    setDetail(null)
    setError(null)
  }

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

  const importPanel = (
    <ImportPanel
      key="import"
      onImported={(id, issues) => {
        setImportIssues(issues > 0)
        openRun(id)
      }}
    />
  )
  const runsList = (
    <section key="list" className="card" aria-labelledby="runs-list-heading">
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
                <button type="button" className="btn-link" onClick={() => pickRun(r.runId)}>
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
  )
  const shown = detail !== null && detail.run.runId === open ? detail : null
  const runDetail = shown && (
    <div key="detail" data-testid="run-detail" data-state={shown.run.state}>
      <Toolbar>
        <Button variant="link" onClick={closeRun} data-testid="runs-back">
          {t('list.back')}
        </Button>
      </Toolbar>
      <RunHeading detail={shown} focusOnShow={picked} />
      {/* The current wave's funding sheet (only while a wave waits for its deposit) right under the heading:
          what the analyst must send is above the fold at 1024×700 (issue #26). */}
      <SheetPanel detail={shown} onChange={onDetail} />
      <ReviewPanel detail={shown} onChange={onDetail} />
      {shown.run.state !== 'draft' && <WavePanel detail={shown} onChange={onDetail} />}
      <ReportPanel detail={shown} />
      <RowActionsPanel detail={shown} onChange={onDetail} />
      <RowsTable rows={shown.rows} />
    </div>
  )
  const errorNotice = error && <RunErrorNotice key="error" error={error} />
  // An open run is the page's subject: it comes first, the import and the list follow it. Exception: the file just
  // imported had refused lines — they stay on top until the analyst opens another run or goes back. Keyed children
  // in one array: React moves them without losing their state (the import's result, a half-typed field).
  const runFirst = runDetail && !importIssues
  const children = runFirst
    ? [errorNotice, runDetail, importPanel, runsList]
    : [importPanel, runsList, errorNotice, runDetail]

  return (
    <div className="page">
      <PageHeader title={t('title')} lead={t('intro')} />
      {children}
    </div>
  )
}
