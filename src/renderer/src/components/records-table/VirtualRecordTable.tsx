/**
 * The records as a real <table> whose body is virtualized: the scroll height is total × row height, only the
 * rows on screen (plus a margin) exist in the DOM, and two spacer rows stand for the rest. TanStack Table owns
 * the columns and the sort state (sorting itself is main's: `manualSorting`); TanStack Virtual owns the window.
 * Keyboard: one row is the tab stop (roving tabindex); arrows, Page Up/Down, Home/End move it; Enter opens.
 */
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type Row,
  type SortingState,
  type Updater,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { COLUMN_WIDTHS, recordColumns, WIDE_COLUMN_WIDTHS, WIDE_MEDIA } from './columns'
import { useMedia } from '../layout/useMedia'
import type { SortField, SortState } from './filter-model'
import type { RecordPages } from './useRecordPages'

export const ROW_HEIGHT = 40
const HEADER_HEIGHT = 44
const OVERSCAN = 8
const SCROLLBAR_ROOM = 18

export interface VirtualRecordTableProps {
  pages: RecordPages
  sort: SortState
  onSortChange: (sort: SortState) => void
  onOpen: (record: WithdrawalRecord, index: number) => void
  /** Row to mark as the one shown elsewhere (review's read-only panel). */
  selectedId?: string | null
  readOnly?: boolean
  initialScrollTop: number
  /** Called on unmount with the last scroll position. */
  onLeave: (scrollTop: number) => void
}

function toSorting(sort: SortState): SortingState {
  return [{ id: sort.field, desc: sort.dir === 'desc' }]
}

export function VirtualRecordTable(props: VirtualRecordTableProps): React.JSX.Element {
  const { pages, sort, onSortChange, onOpen, readOnly } = props
  const { t } = useTranslation('list')
  const { t: tl } = useTranslation('layout')
  const id = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(0)
  const focusWanted = useRef(false)
  const total = pages.total ?? 0

  // TanStack Virtual is knowingly not memoizable by the React Compiler; this component re-renders on scroll anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    initialOffset: props.initialScrollTop,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? -1

  const { ensure } = pages
  useEffect(() => {
    // Waits for the scroll to settle a little so dragging the scrollbar across 100,000 rows fetches the pages
    // where it stops, not every page it passed.
    const timer = setTimeout(() => ensure(Math.max(0, first - OVERSCAN), last + OVERSCAN), 60)
    return () => clearTimeout(timer)
  }, [ensure, first, last, total])

  // Remembers where the operator was, for when they come back from a detail page.
  const { onLeave } = props
  useEffect(() => {
    const el = scrollRef.current
    if (!el) return
    let top = el.scrollTop
    const save = (): void => {
      top = el.scrollTop
    }
    el.addEventListener('scroll', save, { passive: true })
    return () => {
      el.removeEventListener('scroll', save)
      onLeave(top)
    }
  }, [onLeave])

  // One array per window and cache version: TanStack Table recomputes (and resets its own state) whenever the
  // data array changes identity, so a fresh array on every render would re-render forever.
  const { get, version } = pages
  const loaded = useMemo(() => {
    const out: WithdrawalRecord[] = []
    for (let i = first; i <= last; i++) {
      const r = get(i)
      if (r) out.push(r)
    }
    return out
    // `get` reads the cache that `version` stands for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, last, version])
  // `runOf` reads the cache that `version` stands for, as `get` does. An opened export (read-only) has no runs:
  // its records.json does not carry them, so the column is left out rather than shown empty.
  const { runOf } = pages
  const wide = useMedia(WIDE_MEDIA)
  const widths = wide ? WIDE_COLUMN_WIDTHS : COLUMN_WIDTHS
  const columns = useMemo(
    () => recordColumns(t, tl, readOnly ? null : runOf, wide),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, tl, readOnly, version, wide],
  )
  const sorting = toSorting(sort)
  const table = useReactTable({
    data: loaded,
    columns,
    state: { sorting },
    manualSorting: true,
    // Nothing is paginated, expanded or grouped here: no table state to reset when the rows change.
    autoResetAll: false,
    enableMultiSort: false,
    enableSortingRemoval: false,
    getRowId: (r) => r.localId,
    getCoreRowModel: getCoreRowModel(),
    onSortingChange: (u: Updater<SortingState>) => {
      const next = (typeof u === 'function' ? u(sorting) : u)[0]
      if (next) onSortChange({ field: next.id as SortField, dir: next.desc ? 'desc' : 'asc' })
    },
  })
  const rowsById = new Map<string, Row<WithdrawalRecord>>(table.getRowModel().rows.map((r) => [r.id, r]))
  const columnCount = columns.length

  // The tab stop must be a row that exists: the active one when on screen, else the first on screen.
  const tabStop = active >= first && active <= last ? active : first

  const moveTo = (index: number): void => {
    if (total === 0) return
    const i = Math.max(0, Math.min(total - 1, index))
    focusWanted.current = true
    setActive(i)
    virtualizer.scrollToIndex(i, { align: 'auto' })
  }

  useEffect(() => {
    if (!focusWanted.current) return
    let frames = 0
    let raf = 0
    // The row appears once the virtualizer has seen the scroll; try for a few frames.
    const tryFocus = (): void => {
      const row = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${active}"]`)
      if (row) {
        focusWanted.current = false
        row.focus({ preventScroll: true })
      } else if (frames++ < 10) raf = requestAnimationFrame(tryFocus)
    }
    tryFocus()
    return () => cancelAnimationFrame(raf)
  }, [active, first, last])

  const pageRows = Math.max(
    1,
    Math.floor(((scrollRef.current?.clientHeight ?? 400) - HEADER_HEIGHT) / ROW_HEIGHT) - 1,
  )
  const onKeyDown = (e: React.KeyboardEvent<HTMLTableSectionElement>): void => {
    const keys: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + pageRows,
      PageUp: active - pageRows,
      Home: 0,
      End: total - 1,
    }
    if (e.key in keys) {
      e.preventDefault()
      moveTo(keys[e.key] as number)
    } else if (e.key === 'Enter' || e.key === ' ') {
      const record = pages.get(active)
      if (record) {
        e.preventDefault()
        onOpen(record, active)
      }
    }
  }

  const padTop = items.length > 0 ? (items[0]?.start ?? 0) - HEADER_HEIGHT : 0
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0
  const hintId = `${id}-hint`

  return (
    <div className="vtable" data-testid="records-table">
      <p id={hintId} className="visually-hidden">
        {t(readOnly ? 'table.keyboardHintReadOnly' : 'table.keyboardHint')}
      </p>
      <div
        ref={scrollRef}
        className="vtable-scroll"
        data-testid="records-scroll"
        // A short list gets a short box (room for a horizontal scrollbar); a long one is capped by CSS.
        style={{ height: total * ROW_HEIGHT + HEADER_HEIGHT + SCROLLBAR_ROOM }}
      >
        <table className="data vtable-table" aria-rowcount={total + 1} aria-describedby={hintId}>
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <colgroup>
            {table.getVisibleLeafColumns().map((c) => (
              <col key={c.id} style={{ width: widths[c.id] }} />
            ))}
          </colgroup>
          <thead>
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id} aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
                {g.headers.map((h) => {
                  const label = flexRender(h.column.columnDef.header, h.getContext())
                  if (!h.column.getCanSort()) {
                    return (
                      <th key={h.id} scope="col">
                        {label}
                      </th>
                    )
                  }
                  const dir = h.column.getIsSorted()
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                    >
                      <button
                        type="button"
                        className="sort-button"
                        data-sort={h.column.id}
                        onClick={h.column.getToggleSortingHandler()}
                      >
                        {label}
                        <span aria-hidden="true" className="sort-arrow">
                          {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : '↕'}
                        </span>
                      </button>
                    </th>
                  )
                })}
              </tr>
            ))}
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {padTop > 0 && (
              <tr aria-hidden="true" className="vtable-spacer" style={{ height: padTop }}>
                <td colSpan={columnCount} />
              </tr>
            )}
            {items.map((v) => {
              const record = pages.get(v.index)
              const row = record ? rowsById.get(record.localId) : undefined
              const common = {
                'data-index': v.index,
                'aria-rowindex': v.index + 2,
                tabIndex: v.index === tabStop ? 0 : -1,
                style: { height: ROW_HEIGHT },
                onFocus: () => setActive(v.index),
              }
              if (!record || !row) {
                return (
                  <tr key={`loading-${v.index}`} {...common} className="vtable-row vtable-loading">
                    <td colSpan={columnCount}>{t('table.loadingRow')}</td>
                  </tr>
                )
              }
              return (
                <tr
                  key={`${v.index}-${record.localId}`}
                  {...common}
                  className={
                    props.selectedId === record.localId ? 'vtable-row vtable-selected' : 'vtable-row'
                  }
                  data-local-id={record.localId}
                  onClick={() => {
                    setActive(v.index)
                    onOpen(record, v.index)
                  }}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} data-col={cell.column.id}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              )
            })}
            {padBottom > 0 && (
              <tr aria-hidden="true" className="vtable-spacer" style={{ height: padBottom }}>
                <td colSpan={columnCount} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  )
}
