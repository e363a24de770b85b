/**
 * Fetches the records table's pages on demand from main (`withdrawals:list` live, `review:list` for an opened
 * export), keeps them in a bounded cache, and keeps visible rows fresh on `withdrawal:changed`.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { IpcError, RecordPageView } from '../../../../shared/contract'
import type { RunLink } from '../../../../shared/run-link'
import type { RecordFilter, StatusTotal, WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { call, useEvent } from '../../ipc'
import { queryKey } from './filter-model'
import { PageCache } from './page-cache'

export type RecordSource = 'withdrawals:list' | 'review:list'

export interface RecordPages {
  /** null until the first page answered. */
  total: number | null
  totals: StatusTotal[]
  error: IpcError | null
  /** The list changed in main since it was loaded (a record was added): offsets may have moved. */
  stale: boolean
  /** Changes whenever cached rows change (a page arrived, a record was replaced). */
  version: number
  get: (index: number) => WithdrawalRecord | undefined
  /** The payment run ("Lote") a loaded record came from; undefined for a payment made alone. */
  runOf: (localId: string) => RunLink | undefined
  /** Asks for the pages covering rows [first, last]; cheap to call on every scroll. */
  ensure: (first: number, last: number) => void
  /** Drops every cached page and starts again from the first. */
  reload: () => void
}

/** Events arrive in bursts while the status tracker polls: one count refresh per burst is enough. */
const COUNT_REFRESH_MS = 800

function fetchPage(source: RecordSource, filter: RecordFilter, offset: number, limit: number) {
  return call(source, { ...filter, offset, limit })
}

export function useRecordPages(source: RecordSource, filter: RecordFilter, live: boolean): RecordPages {
  const key = queryKey(filter)
  const [cache, setCache] = useState(() => ({ key, cache: new PageCache() }))
  const [total, setTotal] = useState<number | null>(null)
  const [totals, setTotals] = useState<StatusTotal[]>([])
  const [error, setError] = useState<IpcError | null>(null)
  const [stale, setStale] = useState(false)
  const [version, setVersion] = useState(0)
  const filterRef = useRef(filter)
  const totalRef = useRef<number | null>(null)
  const current = useRef(cache)

  const bump = useCallback(() => setVersion((v) => v + 1), [])

  const accept = useCallback(
    (c: { key: string; cache: PageCache }, offset: number, data: RecordPageView) => {
      if (current.current !== c) return
      c.cache.set(offset, data.rows, data.runs)
      totalRef.current = data.total
      setTotal(data.total)
      setTotals(data.totals)
      setError(null)
      bump()
    },
    [bump],
  )

  const load = useCallback(
    (c: { key: string; cache: PageCache }, offset: number) => {
      c.cache.markPending(offset)
      void fetchPage(source, filterRef.current, offset, c.cache.pageSize).then((r) => {
        if (current.current !== c) return
        if (r.ok) accept(c, offset, r.data)
        else {
          c.cache.clearPending(offset)
          setError(r.error)
        }
      })
    },
    [source, accept],
  )

  const restart = useCallback(() => {
    const fresh = { key: queryKey(filterRef.current), cache: new PageCache() }
    current.current = fresh
    setCache(fresh)
    totalRef.current = null
    setTotal(null)
    setStale(false)
    setError(null)
    load(fresh, 0)
  }, [load])

  // A new query (filters, sort or source) starts from an empty cache; the old one's answers are ignored.
  useEffect(() => {
    filterRef.current = filter
    restart()
    // `key` stands for `filter`: an equal filter object rebuilt on render must not refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, source, restart])

  const ensure = useCallback(
    (first: number, last: number) => {
      const c = current.current
      const n = totalRef.current
      if (n === null) return
      c.cache.touch(first, last)
      for (const offset of c.cache.missing(first, last, n)) load(c, offset)
    },
    [load],
  )

  const countTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (countTimer.current) clearTimeout(countTimer.current)
    },
    [],
  )
  const refreshCounts = useCallback(() => {
    if (countTimer.current) clearTimeout(countTimer.current)
    countTimer.current = setTimeout(() => {
      const c = current.current
      void fetchPage(source, filterRef.current, 0, 1).then((r) => {
        if (current.current !== c || !r.ok) return
        setTotals(r.data.totals)
        if (r.data.total !== totalRef.current) setStale(true)
      })
    }, COUNT_REFRESH_MS)
  }, [source])

  useEvent('withdrawal:changed', (record) => {
    if (!live) return
    if (current.current.cache.replace(record)) bump()
    refreshCounts()
  })

  return {
    total,
    totals,
    error,
    stale,
    version,
    get: (index) => cache.cache.get(index),
    runOf: (localId) => cache.cache.runOf(localId),
    ensure,
    reload: restart,
  }
}
