/**
 * Filters, totals and the virtualized records table, for any source of records: the live ledger
 * (`withdrawals:list`) or an opened export (`review:list`). Filters and sort live in a per-table store so they
 * survive a visit to a detail page.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RecordFilter, WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { ErrorNotice } from '../ErrorNotice'
import { EMPTY_FILTER, queryKey, toRecordFilter, type FilterInput, type SortState } from './filter-model'
import { RecordFilters } from './RecordFilters'
import { StatusTotals, type TotalsPeriod } from './StatusTotals'
import { useTableStore, useTableView } from './table-store'
import { useRecordPages, type RecordSource } from './useRecordPages'
import { VirtualRecordTable } from './VirtualRecordTable'

const TEXT_DEBOUNCE_MS = 300

function periodOf(f: RecordFilter): TotalsPeriod {
  if (f.from === undefined && f.to === undefined) return 'all'
  return f.dateBasis ?? 'created'
}

function useDebounced<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setOut(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return out
}

export interface RecordsTableProps {
  /** Which store entry keeps this table's filters; also separates live and review tables. */
  tableId: string
  source: RecordSource
  onOpen: (record: WithdrawalRecord) => void
  /** Keep visible rows fresh on `withdrawal:changed` (live ledger only). */
  live: boolean
  readOnly?: boolean
  selectedId?: string | null
}

export function RecordsTable({
  tableId,
  source,
  onOpen,
  live,
  readOnly,
  selectedId,
}: RecordsTableProps): React.JSX.Element {
  const { t } = useTranslation('list')
  const { t: tl } = useTranslation('layout')
  const view = useTableView(tableId)
  const update = useTableStore((s) => s.update)
  const text = useDebounced(view.input.text, TEXT_DEBOUNCE_MS)
  const applied: FilterInput = { ...view.input, text }
  const filter = toRecordFilter(applied, view.sort)
  const key = queryKey(filter)
  // Rebuilt only when the query really changes, so the pages hook sees one filter object per query.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableFilter = useMemo(() => filter, [key])
  const pages = useRecordPages(source, stableFilter, live)

  const onChange = (patch: Partial<FilterInput>): void =>
    update(tableId, { input: { ...view.input, ...patch } })
  const onSortChange = (sort: SortState): void => update(tableId, { sort })
  const onLeave = useCallback(
    (scrollTop: number) => update(tableId, { scrollTop, scrollKey: key }),
    [tableId, update, key],
  )

  return (
    <div className="records-table">
      <RecordFilters
        input={view.input}
        onChange={onChange}
        onClear={() => update(tableId, { input: EMPTY_FILTER })}
        readOnly={readOnly}
      />
      <div className="table-toolbar">
        <p aria-live="polite" data-testid="records-count">
          {pages.total === null ? t('table.loading') : t('table.count', { count: pages.total })}
        </p>
        <button type="button" className="btn btn-small" onClick={pages.reload}>
          {t('reload')}
        </button>
        {/* Collapsed so the rows stay on the first screen. */}
        <details className="totals-details" data-testid="totals-details">
          <summary>{tl('today.totals')}</summary>
          <StatusTotals totals={pages.totals} period={periodOf(filter)} />
        </details>
      </div>
      {pages.stale && (
        <div className="alert alert-info" role="status">
          <p>
            {t('stale')}{' '}
            <button type="button" className="btn btn-small" onClick={pages.reload}>
              {t('reload')}
            </button>
          </p>
        </div>
      )}
      {pages.error && (
        <div>
          <ErrorNotice error={pages.error} />
          <button type="button" className="btn" onClick={pages.reload}>
            {t('reload')}
          </button>
        </div>
      )}
      {pages.total === 0 && <p className="alert alert-info">{t('table.empty')}</p>}
      {pages.total !== null && pages.total > 0 && (
        <VirtualRecordTable
          // A new query is a new table: back to the top, first row active.
          key={key}
          pages={pages}
          sort={view.sort}
          onSortChange={onSortChange}
          onOpen={(record) => onOpen(record)}
          readOnly={readOnly}
          selectedId={selectedId}
          initialScrollTop={view.scrollKey === key ? view.scrollTop : 0}
          onLeave={onLeave}
        />
      )}
    </div>
  )
}
