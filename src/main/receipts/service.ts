/**
 * Keeps a local copy of every payout receipt, over a receipt store (ledger/receipt-store.ts): this computer's
 * SQLite ledger with files beside it, or a team's PostgreSQL ledger (issue #16) — one service, the engines differ
 * only in the store. A record whose last answer carries `receiptUrl` is registered once (`notice`); a background
 * pass (`runDue`) fetches what is due, one at a time, and never blocks anything: the tracker only calls `notice`,
 * quitting just stops the timer and abandons an attempt in flight (the row stays pending and is tried again next
 * start). Failures back off (BACKOFF_MS), and a receipt is given up on after MAX_ATTEMPTS or GIVE_UP_AFTER_MS
 * since first seen: it is then shown as missing. On a team only the desk leading the tracker fetches (`canFetch`),
 * so N desks never download the same receipt N times (a hand-over mid-fetch at worst fetches one twice: the
 * second store changes nothing). Reading hashes the bytes again, whatever the store already checked.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { sha256Hex } from '../ledger/model/receipts'
import type { ReceiptRow, ReceiptStore, StoredReceiptRow } from '../ledger/receipt-store'
import { fetchReceipt, ReceiptFetchError, type FetchOptions } from './fetch'

export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const
const DAY_MS = 86_400_000
export const MAX_ATTEMPTS = 12
export const GIVE_UP_AFTER_MS = 7 * DAY_MS
const PASS_EVERY_MS = 60_000
const BATCH = 5

export interface ReceiptServiceOptions {
  store: ReceiptStore
  /** False while another desk leads the team's tracker: only the leader fetches. Default: always. */
  canFetch?: () => boolean
  now?: () => number
  /** The embedded sandbox's origin when the record's service is that sandbox, else null (https only). */
  loopbackOrigin: (localId: string) => string | null
  fetchOptions?: Omit<FetchOptions, 'loopbackOrigin'>
  /** Called after a receipt is stored or given up on (the renderer refreshes the record's receipt panel). */
  onChange?: (localId: string) => void
  log?: (line: string) => void
  /** How log lines name a receipt ('receipt', 'team receipt'). */
  logAs?: string
}

export type ReceiptView =
  | { state: 'none' }
  | { state: 'pending' | 'gave_up'; attempts: number; lastError: string | null; nextAttemptAt: string | null }
  | {
      state: 'stored'
      sha256: string
      size: number
      mediaType: 'application/pdf' | 'text/html'
      fetchedAt: string
    }
  | { state: 'damaged'; reason: 'missing' | 'hash_mismatch'; sha256: string }

export interface ReceiptService {
  /** Registers the record's receipt URL if it has one; resolves once registered (never rejects). */
  notice(record: WithdrawalRecord): Promise<void>
  /** Fetches what is due (when this desk may fetch); the number of receipts tried. */
  runDue(): Promise<number>
  view(localId: string): Promise<ReceiptView>
  /** The stored bytes after their hash is checked; null when there are none (or they changed). */
  bytes(
    localId: string,
  ): Promise<{ bytes: Buffer; mediaType: 'application/pdf' | 'text/html'; sha256: string } | null>
  start(): void
  stop(): Promise<void>
}

export function nextAttempt(row: ReceiptRow, nowMs: number): { nextAttemptAt: string } | 'give_up' {
  const attempts = row.attempts + 1
  if (attempts >= MAX_ATTEMPTS || nowMs - Date.parse(row.firstSeenAt) >= GIVE_UP_AFTER_MS) return 'give_up'
  const delay = BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)] as number
  return { nextAttemptAt: new Date(nowMs + delay).toISOString() }
}

const storedRow = (row: ReceiptRow | null): StoredReceiptRow | null =>
  row?.state === 'stored' && row.sha256 !== null && row.mediaType !== null
    ? { ...row, sha256: row.sha256, mediaType: row.mediaType }
    : null

export function createReceiptService(o: ReceiptServiceOptions): ReceiptService {
  const store = o.store
  const now = o.now ?? Date.now
  const canFetch = o.canFetch ?? (() => true)
  const log = o.log ?? (() => undefined)
  const logAs = o.logAs ?? 'receipt'
  let timer: NodeJS.Timeout | null = null
  let running: Promise<number> | null = null
  let stopped = false

  const attempt = async (row: ReceiptRow): Promise<void> => {
    try {
      const { bytes, mediaType } = await fetchReceipt(row.url, {
        ...o.fetchOptions,
        loopbackOrigin: o.loopbackOrigin(row.localId),
      })
      if (stopped) return
      await store.stored(row.localId, { bytes, mediaType, fetchedAt: new Date(now()).toISOString() })
    } catch (e) {
      if (stopped) return
      const code = e instanceof ReceiptFetchError ? e.message : 'store_failed'
      const next = nextAttempt(row, now())
      await store.failed(row.localId, code.slice(0, 200), next)
      log(`${logAs} ${row.localId}: ${code}${next === 'give_up' ? ' (giving up)' : ''}`)
      if (next !== 'give_up') return
    }
    o.onChange?.(row.localId)
  }

  const pass = async (): Promise<number> => {
    if (!canFetch()) return 0
    const due = await store.due(new Date(now()).toISOString(), BATCH)
    for (const row of due) {
      if (stopped || !canFetch()) break
      await attempt(row)
    }
    return due.length
  }

  const service: ReceiptService = {
    notice: async (record) => {
      const url = record.lastRemote?.['receiptUrl']
      if (typeof url !== 'string' || url === '' || url.length > 2048) return
      try {
        if (await store.notice(record.localId, url, new Date(now()).toISOString())) {
          if (canFetch()) void service.runDue().catch(() => undefined)
        }
      } catch (e) {
        // Never let a receipt stop the tracker that told us about it.
        log(`${logAs} ${record.localId}: not tracked (${e instanceof Error ? e.name : 'error'})`)
      }
    },
    runDue: () => {
      if (stopped) return Promise.resolve(0)
      running ??= pass().finally(() => {
        running = null
      })
      return running
    },
    view: async (localId) => {
      const row = await store.get(localId)
      if (row === null) return { state: 'none' }
      const stored = storedRow(row)
      if (stored === null) {
        return {
          state: row.state === 'stored' ? 'pending' : row.state,
          attempts: row.attempts,
          lastError: row.lastError,
          nextAttemptAt: row.nextAttemptAt,
        }
      }
      const check = await store.check(stored)
      if (!check.ok) return { state: 'damaged', reason: check.reason, sha256: stored.sha256 }
      return {
        state: 'stored',
        sha256: stored.sha256,
        size: check.size,
        mediaType: stored.mediaType,
        fetchedAt: stored.fetchedAt ?? '',
      }
    },
    bytes: async (localId) => {
      const row = storedRow(await store.get(localId))
      if (row === null) return null
      const bytes = await store.read(row)
      // Checked here, on the bytes this desk is about to show, whatever the store computed.
      if (bytes === null || sha256Hex(bytes) !== row.sha256) return null
      return { bytes, mediaType: row.mediaType, sha256: row.sha256 }
    },
    start: () => {
      stopped = false
      if (timer) return
      timer = setInterval(() => void service.runDue().catch(() => undefined), PASS_EVERY_MS)
      timer.unref()
      void service.runDue().catch(() => undefined)
    },
    stop: async () => {
      stopped = true
      if (timer) clearInterval(timer)
      timer = null
      // An attempt in flight ends by its own timeout; quitting does not wait for it.
    },
  }
  return service
}
