/**
 * The run's report: totals by outcome on screen (the rows table has each row), and a signed export of exactly the
 * run's withdrawals through the same exporter, manifest and verifier as any export (filter `runId`).
 */
import { Fragment, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunDetailView } from '../../../../shared/channels-runs'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { useRoute } from '../../stores/route'
import { EMPTY_FILTER } from '../records-table/filter-model'
import { useTableStore } from '../records-table/table-store'
import { Toolbar } from '../ui/Toolbar'
import { RunErrorNotice } from './run-error'

export function ReportPanel({ detail }: { detail: RunDetailView }): React.JSX.Element | null {
  const { t } = useTranslation('runs')
  const [error, setError] = useState<IpcError | null>(null)
  const [done, setDone] = useState<{ files: number; rows: number } | null>(null)
  const go = useRoute((s) => s.go)
  const updateTable = useTableStore((s) => s.update)
  const counts = Object.entries(detail.progress.counts).filter(([, n]) => n > 0)
  if (detail.run.wave === 0) return null

  const exportRun = async (): Promise<void> => {
    setError(null)
    const folder = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!folder.ok) return setError(folder.error)
    if (folder.data === null) return
    const r = await call('records:export', {
      folder: folder.data.token,
      formats: ['csv', 'json', 'html'],
      filter: { runId: detail.run.runId },
    })
    if (r.ok) setDone({ files: r.data.files.length, rows: r.data.rowCount })
    else setError(r.error)
  }

  return (
    <section className="card" aria-labelledby="run-report-heading" data-testid="run-report">
      <h3 id="run-report-heading">{t('report.heading')}</h3>
      <dl className="facts" data-testid="run-outcomes">
        {counts.map(([k, n]) => (
          <Fragment key={k}>
            <dt>{t(`outcome.${k}`)}</dt>
            <dd className="num" data-outcome={k}>
              {n}
            </dd>
          </Fragment>
        ))}
      </dl>
      <Toolbar>
        <button type="button" className="btn" onClick={() => void exportRun()}>
          {t('report.export')}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            // The withdrawals list, narrowed to this run: the same table, filters and totals as any other view.
            updateTable('withdrawals', {
              input: { ...EMPTY_FILTER, run: { id: detail.run.runId, name: detail.run.name } },
              scrollTop: 0,
            })
            go({ page: 'withdrawals' })
          }}
        >
          {t('report.showInList')}
        </button>
        {done && <span role="status">{t('report.exported', { rows: done.rows })}</span>}
      </Toolbar>
      {error && <RunErrorNotice error={error} />}
    </section>
  )
}
