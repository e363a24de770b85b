/**
 * Pages of records by offset, for a table that can be 100,000 rows long: only the pages near what is on screen
 * are fetched, and only a bounded number are kept (least recently used go first), so memory stays flat however
 * far the operator scrolls.
 */
import type { RunLink, RunLinks } from '../../../../shared/run-link'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'

export const PAGE_SIZE = 200
/** 40 pages × 200 rows: 8,000 records at most in memory. */
export const MAX_CACHED_PAGES = 40

export class PageCache {
  private readonly pages = new Map<number, WithdrawalRecord[]>()
  private readonly pending = new Set<number>()
  /** The run ("Lote") of each cached row that came from one; dropped with its page. */
  private readonly runs = new Map<string, RunLink>()

  constructor(
    readonly pageSize = PAGE_SIZE,
    private readonly maxPages = MAX_CACHED_PAGES,
  ) {}

  pageOf(index: number): number {
    return Math.floor(index / this.pageSize) * this.pageSize
  }

  /** The record at `index`, or undefined while its page is not loaded. */
  get(index: number): WithdrawalRecord | undefined {
    const offset = this.pageOf(index)
    const page = this.pages.get(offset)
    return page?.[index - offset]
  }

  /** Offsets of the pages covering [first, last] that are neither loaded nor being fetched. */
  missing(first: number, last: number, total: number): number[] {
    if (total <= 0 || last < first) return []
    const out: number[] = []
    const end = Math.min(last, total - 1)
    for (let offset = this.pageOf(Math.max(0, first)); offset <= end; offset += this.pageSize) {
      if (!this.pages.has(offset) && !this.pending.has(offset)) out.push(offset)
    }
    return out
  }

  markPending(offset: number): void {
    this.pending.add(offset)
  }

  /** A fetch ended without rows: the page may be asked for again. */
  clearPending(offset: number): void {
    this.pending.delete(offset)
  }

  set(offset: number, rows: WithdrawalRecord[], runs: RunLinks = {}): void {
    this.pending.delete(offset)
    this.forget(offset)
    this.pages.set(offset, rows)
    for (const r of rows) {
      const run = Object.hasOwn(runs, r.localId) ? runs[r.localId] : undefined
      if (run) this.runs.set(r.localId, run)
    }
    while (this.pages.size > this.maxPages) {
      const oldest = this.pages.keys().next().value
      if (oldest === undefined) break
      this.forget(oldest)
    }
  }

  /** The run the cached record came from, if any. */
  runOf(localId: string): RunLink | undefined {
    return this.runs.get(localId)
  }

  private forget(offset: number): void {
    for (const r of this.pages.get(offset) ?? []) this.runs.delete(r.localId)
    this.pages.delete(offset)
  }

  /** Marks the pages as recently used so eviction takes others first. */
  touch(first: number, last: number): void {
    for (let offset = this.pageOf(Math.max(0, first)); offset <= last; offset += this.pageSize) {
      const page = this.pages.get(offset)
      if (page) {
        this.pages.delete(offset)
        this.pages.set(offset, page)
      }
    }
  }

  /** Replaces a cached record in place (a status changed); false when it is not cached. */
  replace(record: WithdrawalRecord): boolean {
    for (const page of this.pages.values()) {
      const i = page.findIndex((r) => r.localId === record.localId)
      if (i >= 0) {
        page[i] = record
        return true
      }
    }
    return false
  }

  get size(): number {
    return this.pages.size
  }
}
