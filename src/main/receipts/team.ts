/**
 * Receipts of a team's payments (issue #16): the bytes are kept in the team ledger (ledger/pg/receipts.ts),
 * so every desk reads the receipt of a payment any desk made. Any desk may register a receipt URL it sees (one
 * INSERT, first sighting wins); only the desk leading the team's tracker fetches, so N desks never download the
 * same receipt N times (a leadership hand-over mid-fetch at worst fetches one twice: the second store changes
 * nothing). Backoff and giving up are the desk receipts' rules (service.ts). Reading checks the bytes against the
 * hash stored with them and against the hash the audit trail recorded when they were stored.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { PgReceipts } from '../ledger/pg/receipts'
import { fetchReceipt, ReceiptFetchError, type FetchOptions } from './fetch'
import { sha256Hex } from '../ledger/sqlite/receipt-files'
import { nextAttempt, type ReceiptView } from './service'

const PASS_EVERY_MS = 60_000
const BATCH = 5

export interface TeamReceiptServiceOptions {
  receipts: PgReceipts
  /** True while this desk leads the team's tracker: only then does it fetch. */
  isLeader: () => boolean
  /** The embedded sandbox's origin when the profile's service is that sandbox, else null (https only). */
  loopbackOrigin: string | null
  fetchOptions?: Omit<FetchOptions, 'loopbackOrigin'>
  now?: () => number
  onChange?: (localId: string) => void
  log?: (line: string) => void
}

export interface TeamReceiptService {
  notice(record: WithdrawalRecord): void
  /** Fetches what is due when this desk leads; the number of receipts tried. */
  runDue(): Promise<number>
  view(localId: string): Promise<ReceiptView>
  bytes(
    localId: string,
  ): Promise<{ bytes: Buffer; mediaType: 'application/pdf' | 'text/html'; sha256: string } | null>
  start(): void
  stop(): void
}

export function createTeamReceiptService(o: TeamReceiptServiceOptions): TeamReceiptService {
  const now = o.now ?? Date.now
  const log = o.log ?? (() => undefined)
  let timer: NodeJS.Timeout | null = null
  let running: Promise<number> | null = null
  let stopped = false

  const attempt = async (row: Awaited<ReturnType<PgReceipts['due']>>[number]): Promise<void> => {
    try {
      const { bytes, mediaType } = await fetchReceipt(row.url, {
        ...o.fetchOptions,
        loopbackOrigin: o.loopbackOrigin,
      })
      if (stopped) return
      await o.receipts.stored(row.localId, { bytes, sha256: sha256Hex(bytes), mediaType })
    } catch (e) {
      if (stopped) return
      const code = e instanceof ReceiptFetchError ? e.message : 'store_failed'
      const next = nextAttempt(row, now())
      await o.receipts.failed(row.localId, code.slice(0, 200), next)
      log(`team receipt ${row.localId}: ${code}${next === 'give_up' ? ' (giving up)' : ''}`)
      if (next !== 'give_up') return
    }
    o.onChange?.(row.localId)
  }

  const pass = async (): Promise<number> => {
    if (!o.isLeader()) return 0
    const due = await o.receipts.due(new Date(now()).toISOString(), BATCH)
    for (const row of due) {
      if (stopped || !o.isLeader()) break
      await attempt(row)
    }
    return due.length
  }

  const service: TeamReceiptService = {
    notice: (record) => {
      const url = record.lastRemote?.['receiptUrl']
      if (typeof url !== 'string' || url === '' || url.length > 2048) return
      o.receipts
        .get(record.localId)
        .then(async (known) =>
          known === null ? o.receipts.track(record.localId, url) : known.state === 'pending',
        )
        .then((due) => {
          if (due && o.isLeader()) void service.runDue().catch(() => undefined)
        })
        // Never let a receipt stop the tracker that told us about it.
        .catch((e: unknown) =>
          log(`team receipt ${record.localId}: not tracked (${e instanceof Error ? e.name : 'error'})`),
        )
    },
    runDue: () => {
      if (stopped) return Promise.resolve(0)
      running ??= pass().finally(() => {
        running = null
      })
      return running
    },
    view: async (localId) => {
      const row = await o.receipts.get(localId)
      if (row === null) return { state: 'none' }
      if (row.state !== 'stored' || row.sha256 === null || row.mediaType === null) {
        return {
          state: row.state === 'stored' ? 'pending' : row.state,
          attempts: row.attempts,
          lastError: row.lastError,
          nextAttemptAt: row.nextAttemptAt,
        }
      }
      const h = await o.receipts.storedHash(localId)
      if (h === null || h.actual === null) return { state: 'damaged', reason: 'missing', sha256: row.sha256 }
      if (h.actual !== row.sha256 || h.auditedSha256 !== row.sha256) {
        return { state: 'damaged', reason: 'hash_mismatch', sha256: row.sha256 }
      }
      return {
        state: 'stored',
        sha256: row.sha256,
        size: row.size ?? 0,
        mediaType: row.mediaType,
        fetchedAt: row.fetchedAt ?? '',
      }
    },
    bytes: async (localId) => {
      const row = await o.receipts.get(localId)
      if (row?.state !== 'stored' || row.sha256 === null || row.mediaType === null) return null
      const got = await o.receipts.bytes(localId)
      // Checked here, on the bytes this desk is about to show, whatever the server computed.
      if (got === null || sha256Hex(got.bytes) !== row.sha256 || got.auditedSha256 !== row.sha256) return null
      return { bytes: got.bytes, mediaType: row.mediaType, sha256: row.sha256 }
    },
    start: () => {
      stopped = false
      if (timer) return
      timer = setInterval(() => void service.runDue().catch(() => undefined), PASS_EVERY_MS)
      timer.unref()
      void service.runDue().catch(() => undefined)
    },
    stop: () => {
      stopped = true
      if (timer) clearInterval(timer)
      timer = null
    },
  }
  return service
}
