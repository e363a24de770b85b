/**
 * Keeps a local copy of every payout receipt. A record whose last answer carries `receiptUrl` is registered once
 * (`notice`); a background pass (`runDue`) fetches what is due, one at a time, and never blocks anything: the
 * tracker only calls `notice` (a single INSERT), quitting just stops the timer and abandons an attempt in flight
 * (the row stays pending and is tried again next start). Failures back off (BACKOFF_MS), and a receipt is given
 * up on after MAX_ATTEMPTS or GIVE_UP_AFTER_MS since first seen: it is then shown as missing.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { Ledger, ReceiptRow } from '../ledger/sqlite'
import { fetchReceipt, ReceiptFetchError, type FetchOptions } from './fetch'
import { readReceiptFile, receiptsDir, sha256Hex, writeReceiptFile } from '../ledger/sqlite/receipt-files'

export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const
const DAY_MS = 86_400_000
export const MAX_ATTEMPTS = 12
export const GIVE_UP_AFTER_MS = 7 * DAY_MS
const PASS_EVERY_MS = 60_000
const BATCH = 5

export interface ReceiptServiceOptions {
  ledger: Ledger
  now?: () => number
  /** The embedded sandbox's origin for a record of the Sandbox profile, else null (https only). */
  loopbackOrigin: (localId: string) => string | null
  fetchOptions?: Omit<FetchOptions, 'loopbackOrigin'>
  /** Called after a receipt is stored or given up on (the renderer refreshes the record's receipt panel). */
  onChange?: (localId: string) => void
  log?: (line: string) => void
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
  notice(record: WithdrawalRecord): void
  runDue(): Promise<number>
  view(localId: string): ReceiptView
  /** The stored bytes after their hash is checked; null when there are none (or they changed on disk). */
  bytes(localId: string): { bytes: Buffer; mediaType: 'application/pdf' | 'text/html'; sha256: string } | null
  readonly dir: string
  start(): void
  stop(): Promise<void>
}

export function nextAttempt(row: ReceiptRow, nowMs: number): { nextAttemptAt: string } | 'give_up' {
  const attempts = row.attempts + 1
  if (attempts >= MAX_ATTEMPTS || nowMs - Date.parse(row.firstSeenAt) >= GIVE_UP_AFTER_MS) return 'give_up'
  const delay = BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)] as number
  return { nextAttemptAt: new Date(nowMs + delay).toISOString() }
}

export function createReceiptService(o: ReceiptServiceOptions): ReceiptService {
  const now = o.now ?? Date.now
  const log = o.log ?? (() => undefined)
  const dir = receiptsDir(o.ledger.file)
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
      const sha256 = writeReceiptFile(dir, bytes, mediaType)
      o.ledger.receipts.stored(row.localId, {
        sha256,
        size: bytes.length,
        mediaType,
        fetchedAt: new Date(now()).toISOString(),
      })
    } catch (e) {
      if (stopped) return
      const code = e instanceof ReceiptFetchError ? e.message : 'store_failed'
      const next = nextAttempt(row, now())
      o.ledger.receipts.failed(row.localId, code.slice(0, 200), next)
      log(`receipt ${row.localId}: ${code}${next === 'give_up' ? ' (giving up)' : ''}`)
      if (next !== 'give_up') return
    }
    o.onChange?.(row.localId)
  }

  const pass = async (): Promise<number> => {
    const due = o.ledger.receipts.due(new Date(now()).toISOString(), BATCH)
    for (const row of due) {
      if (stopped) break
      await attempt(row)
    }
    return due.length
  }

  const service: ReceiptService = {
    dir,
    notice: (record) => {
      const url = record.lastRemote?.['receiptUrl']
      if (typeof url !== 'string' || url === '' || url.length > 2048) return
      try {
        if (o.ledger.receipts.get(record.localId) !== null) return
        if (o.ledger.receipts.track(record.localId, url, new Date(now()).toISOString())) {
          queueMicrotask(() => void service.runDue().catch(() => undefined))
        }
      } catch (e) {
        // Never let a receipt stop the tracker that told us about it.
        log(`receipt ${record.localId}: not tracked (${e instanceof Error ? e.name : 'error'})`)
      }
    },
    runDue: () => {
      if (stopped) return Promise.resolve(0)
      running ??= pass().finally(() => {
        running = null
      })
      return running
    },
    view: (localId) => {
      const row = o.ledger.receipts.get(localId)
      if (row === null) return { state: 'none' }
      if (row.state !== 'stored' || row.sha256 === null || row.mediaType === null) {
        return {
          state: row.state === 'stored' ? 'pending' : row.state,
          attempts: row.attempts,
          lastError: row.lastError,
          nextAttemptAt: row.nextAttemptAt,
        }
      }
      const file = readReceiptFile(dir, row.sha256, row.mediaType)
      if (!file.ok) return { state: 'damaged', reason: file.reason, sha256: row.sha256 }
      return {
        state: 'stored',
        sha256: row.sha256,
        size: row.size ?? file.bytes.length,
        mediaType: row.mediaType,
        fetchedAt: row.fetchedAt ?? '',
      }
    },
    bytes: (localId) => {
      const row = o.ledger.receipts.get(localId)
      if (row?.state !== 'stored' || row.sha256 === null || row.mediaType === null) return null
      const file = readReceiptFile(dir, row.sha256, row.mediaType)
      if (!file.ok || sha256Hex(file.bytes) !== row.sha256) return null
      return { bytes: file.bytes, mediaType: row.mediaType, sha256: row.sha256 }
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
