/**
 * Creating one wave. Each row goes through the single payment's own path — `quote` (a one-use intent for exactly
 * this body, the duplicate guard) then `create` (journal `submitting`, POST once, store the outcome) — called,
 * not copied. Before `create`, the row is committed as `in_flight` with the local id its record will get, so a
 * crash at any point leaves either no record (nothing journaled, nothing sent: the row waits again) or a record
 * whose state says what happened (recovery turns a leftover `submitting` into `outcome_unknown`).
 *
 * Pace: a create is only attempted when the client's POST /withdraw bucket has a token (create refuses rather
 * than queue), so the run never earns a 429 and never leaves a journaled POST waiting in a queue. After a
 * restart the client's bucket already counts the POSTs of the last minute (the withdrawal service replays them from
 * the ledger), so resuming at once does not earn a 429 either.
 */
import { randomUUID } from 'node:crypto'
import type { RunRowRecord } from '../../shared/run'
import type { DepixClient } from '../api'
import type { LedgerStore } from '../ledger/ports'
import type { RunStore } from '../ledger/run-store'
import { WithdrawalError, type WithdrawalService } from '../withdrawals'

export interface ExecutorDeps {
  records: LedgerStore
  runs: RunStore
  client: DepixClient
  withdrawals: WithdrawalService
  operator: string
  sleep: (ms: number) => Promise<void>
  /** Asked between rows: stop creating (pause or cancel). */
  stopRequested: () => boolean
  changed: () => void
  onError: (e: unknown) => void
  /** Wall clock (epoch ms), compared with the service's `expiration` of the wave's first withdrawal. */
  now: () => number
  /** Time the operator needs to fund the wave once it is created (planner.ts). */
  fundingMarginMs: number
  /** Funding time per row of the wave (planner.ts, `perRowFunding`: the wallet's status read and build); 0 if absent */
  perRowFundingMs?: number
}

/**
 * `cut`: the service gave the wave's withdrawals a shorter life than the wave was planned for, and the next row
 * could not be created and funded before the first one expires: creation stops, the rest wait for another wave.
 */
export type WaveEnd = 'created' | 'stopped' | { cut: WaveCut }

export interface WaveCut {
  /** The earliest `expiration` among the wave's withdrawals, as the service wrote it. */
  firstExpiration: string
  /** The lifetime the service gave (expiration − creation), ms. */
  lifetimeMs: number
}

/** The create's refusals that mean "a similar payment exists now" (journal/intents.ts, withdrawals/create.ts). */
const DUPLICATE_REFUSALS = new Set(['duplicate', 'duplicate_since_review'])

/** Longest single wait for a token; the loop re-reads the allowance after it. */
const MAX_WAIT_MS = 10_000

/**
 * The service counts a call when it arrives, the client's bucket when it leaves; the first call of a burst also
 * waits for its connection, so it arrives later than the ones after it. A run sends the moment a token is due, so
 * a token refilled this instant may not be refilled at the service yet (a 429 turned a row into "rejected" in the
 * restart E2E): wait until a little more than one token is there. Bursts are not slowed (the bucket holds more),
 * and the steady pace is unchanged (the extra fraction stays in the bucket).
 */
export const ARRIVAL_MARGIN_MS = 250

async function waitForToken(d: ExecutorDeps): Promise<boolean> {
  for (;;) {
    if (d.stopRequested()) return false
    const a = d.client.allowance().withdraw
    const perMs = a.limitPerMinute / 60_000
    const need = Math.min(a.limitPerMinute, 1 + ARRIVAL_MARGIN_MS * perMs)
    if (a.available + 1e-9 >= need && a.queued === 0) return true
    const refill = Math.ceil((need - a.available) / perMs)
    await d.sleep(Math.min(MAX_WAIT_MS, Math.max(1, a.nextTokenInMs, refill)))
  }
}

/**
 * Similar records the approval covered: the ledger duplicates shown for this row at import (the operator chose
 * "keep"), and the records of this run's own rows (the file's duplicates, decided at approval).
 */
async function coveredSimilar(d: ExecutorDeps, row: RunRowRecord): Promise<Set<string>> {
  const covered = new Set<string>(row.decision === 'keep' ? (row.duplicate?.ledger ?? []) : [])
  for (const r of await d.runs.rows(row.runId))
    if (r.localId !== null && r.idx !== row.idx) covered.add(r.localId)
  return covered
}

/** Creates one row; the local id of the record it journaled, or null when nothing was journaled. */
async function createRow(d: ExecutorDeps, row: RunRowRecord): Promise<string | null> {
  const { runs } = d
  for (;;) {
    if (!(await waitForToken(d))) return null
    const quote = await d.withdrawals.quote(row.draft)
    // Asked again after the quote's await, with nothing awaited from here to the create's call: a quit or switch
    // that began meanwhile either stops the row here or sees the create counted and waits for its POST.
    if (d.stopRequested()) return null
    const covered = await coveredSimilar(d, row)
    const unseen = quote.duplicates.filter((w) => !covered.has(w.localId))
    if (unseen.length > 0) {
      await runs.changeRow(
        row.runId,
        row.idx,
        ['queued'],
        { state: 'held', heldReason: 'duplicate_since_approval' },
        d.operator,
        'run.row_held',
        {
          similar: unseen.map((w) => w.localId),
        },
      )
      return null
    }
    const localId = randomUUID()
    // Committed before create is called: from here a crash leaves a row that names its record (or its absence).
    await runs.changeRow(
      row.runId,
      row.idx,
      ['queued'],
      { state: 'in_flight', localId },
      d.operator,
      'run.row_in_flight',
    )
    d.changed()
    try {
      const record = await d.withdrawals.create(row.draft, {
        intentId: quote.intent.id,
        confirmedDuplicates: quote.duplicates.map((w) => w.localId),
        localId,
        // The run's approval is this row's authority; on a team ledger the database checks it (runs migration).
        run: row.runId,
      })
      await runs.changeRow(
        row.runId,
        row.idx,
        ['in_flight'],
        { state: 'submitted' },
        d.operator,
        'run.row_submitted',
        {
          localState: record.localState,
        },
      )
      d.changed()
      return localId
    } catch (e) {
      if ((await d.records.get(localId)) !== undefined) {
        // Journaled: whatever happened after is in the record (e.g. ledger_write_failed kept it outcome_unknown).
        d.onError(e)
        await runs.changeRow(
          row.runId,
          row.idx,
          ['in_flight'],
          { state: 'submitted' },
          d.operator,
          'run.row_submitted',
          {
            error: e instanceof WithdrawalError ? e.code : 'unexpected',
          },
        )
        d.changed()
        return localId
      }
      // Refused before anything was journaled, so nothing was sent. A missing token is only a wait; anything
      // else holds the row for the operator.
      const code = e instanceof WithdrawalError ? e.code : 'unexpected'
      if (code === 'rate_limited') {
        await runs.changeRow(
          row.runId,
          row.idx,
          ['in_flight'],
          { state: 'queued', localId: null },
          d.operator,
          'run.row_requeued',
          {
            reason: code,
          },
        )
        continue
      }
      d.onError(e)
      // A similar payment committed between the quote and the insert (another desk's, or a row of another run)
      // is the same warning as one seen at the quote: the row is held, nothing was sent.
      const duplicate = DUPLICATE_REFUSALS.has(code)
      await runs.changeRow(
        row.runId,
        row.idx,
        ['in_flight'],
        { state: 'held', localId: null, heldReason: duplicate ? 'duplicate_since_approval' : code },
        d.operator,
        'run.row_held',
        duplicate ? { refusal: code } : {},
      )
      d.changed()
      return null
    }
  }
}

/** The wave's first expiry so far: the earliest `expiration` among its withdrawals, and their lifetime. */
class FirstExpiry {
  private first: WaveCut | null = null
  /** withdrawals of the wave created so far: each adds its share of the funding time */
  private created = 0
  constructor(private readonly d: ExecutorDeps) {}

  async see(localId: string | null): Promise<void> {
    if (localId !== null) this.created += 1
    if (localId === null) return
    const rec = await this.d.records.get(localId)
    if (!rec?.expiration) return
    const at = Date.parse(rec.expiration)
    if (!Number.isFinite(at)) return
    if (this.first === null || at < Date.parse(this.first.firstExpiration))
      this.first = { firstExpiration: rec.expiration, lifetimeMs: at - Date.parse(rec.createdAt) }
  }

  /**
   * Whether the next row no longer fits the wave: all of it must be funded before its first withdrawal expires,
   * so a row is created only while the next create (its token wait included) plus the funding margin ends before
   * that expiry. Read from the wave's own answers, so a lifetime shorter than the one the wave was planned with
   * (the planner's assumption before any answer) cuts the wave instead of creating rows that expire unfunded. The
   * deadline is the service's `expiration` on the desk's clock (a skew between them shifts it by the skew).
   */
  cut(): WaveCut | null {
    if (this.first === null) return null
    const nextCreateAt = this.d.now() + Math.max(0, this.d.client.allowance().withdraw.nextTokenInMs)
    const funding = this.d.fundingMarginMs + (this.created + 1) * (this.d.perRowFundingMs ?? 0)
    return nextCreateAt + funding > Date.parse(this.first.firstExpiration) ? this.first : null
  }
}

/** Creates the queued rows of the run's current wave, in order, until done, asked to stop, or cut. */
export async function createWave(d: ExecutorDeps, runId: string, wave: number): Promise<WaveEnd> {
  const rows = (await d.runs.rows(runId)).filter((r) => r.wave === wave)
  const expiry = new FirstExpiry(d)
  // A resumed wave: what was created before the stop counts.
  for (const r of rows) if (r.state === 'submitted') await expiry.see(r.localId)
  for (const row of rows.filter((r) => r.state === 'queued')) {
    if (d.stopRequested()) return 'stopped'
    const cut = expiry.cut()
    if (cut !== null) return { cut }
    await expiry.see(await createRow(d, row))
  }
  return d.stopRequested() && (await d.runs.rows(runId)).some((r) => r.wave === wave && r.state === 'queued')
    ? 'stopped'
    : 'created'
}
