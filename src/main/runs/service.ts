/**
 * The payment-run service: import → review and approval → waves (created through the single payment's create,
 * funded by the operator from one sheet per wave) → report. Lifecycle (docs/ARCHITECTURE.md, "Payment runs"):
 *
 *   draft ──approve──▶ approved ──wave──▶ creating ──▶ awaiting_funding ──funded──▶ approved (next wave on request)
 *                                            │  ▲                                   ├──▶ completed (every row created)
 *                                      pause │  │ resume / take over                └──▶ partially_paid (some not)
 *                                            ▼  │                                          │ a row retried
 *                                           paused  ◀── a restart or a failed database     └──▶ approved
 *   any state but completed ──cancel──▶ cancelled
 */
import type { ImportedRow, RowDecision, RunRecord, RunRowRecord } from '../../shared/run'
import { centsToDePix } from '../../shared/money'
import type { Ledger } from '../ledger/sqlite'
import { sqliteStore } from '../ledger/sqlite/store'
import { sqliteRunStore, type RunStore } from '../ledger/run-store'
import type { LedgerStore } from '../ledger/ports'
import { DUPLICATE_WINDOW_MS } from '../withdrawals'
import type { UnknownResolutionInput } from '../withdrawals/types'
import { runApprovalView, type RunApprovalView } from './approval'
import { RunError } from './errors'
import { importRunFile, type ImportResult } from './import'
import { markLedgerDuplicates } from './ledger-duplicates'
import { progressOf, rowOutcome, type RowOutcome, type RunProgress } from './outcome'
import {
  ASSUMED_LIFETIME_MS,
  fundingMargin,
  observedLifetimeMs,
  perRowFunding,
  planWave,
  type WavePlan,
} from './planner'
import { recoverRuns } from './recovery'
import { retryable, unpaidOutcome } from './retry'
import { buildSheet, type FundingSheet } from './sheet'
import { isDropped, rowsHash, summarize, type RunSummary } from './summary'
import type { RunNotice, RunServiceDeps } from './types'
import { createWaves } from './waves'

export type { RunNotice, RunRuntime, RunServiceDeps } from './types'

export interface RunDetail {
  run: RunRecord
  summary: RunSummary
  progress: RunProgress
  /** `retry`: the row's old outcome is known "not created" by a passing cause, a new create may be asked for. */
  rows: Array<RunRowRecord & { outcome: RowOutcome; retry: boolean }>
  waves: Awaited<ReturnType<RunStore['waves']>>
  /** Ms until the next POST /withdraw token; 0 when one is free. */
  nextCreateInMs: number
  /** The size the app proposes for the next wave (null when no wave can start now). */
  proposal: WavePlan | null
  /** Four-eyes on a team ledger: whether the run needs another analyst's approval and who asked; null on a desk. */
  approval: RunApprovalView | null
  /** Why the last wave ended early (this session), or null. */
  notice: RunNotice | null
  /** `creating`, but by no one any more (a team: its wave lease expired): resume takes it over. */
  takeover: boolean
}

export interface RunService {
  importFile(bytes: Uint8Array, name: string): Promise<{ run: RunRecord | null; result: ImportResult }>
  list(): Promise<RunRecord[]>
  detail(runId: string): Promise<RunDetail>
  decide(runId: string, idx: number, decision: RowDecision): Promise<RunDetail>
  /**
   * The operator's approval: the typed control total, what arrives by Pix (payout) over the rows to pay. On a team ledger whose threshold applies to the run, the first call
   * asks for another analyst's approval (the run stays a draft, its rows frozen); the call by another role grants
   * it; the database refuses the requester (approval_self).
   */
  approve(runId: string, confirmPayoutCents: number): Promise<RunDetail>
  startWave(runId: string, size?: number): Promise<RunDetail>
  pause(runId: string): Promise<RunDetail>
  resume(runId: string): Promise<RunDetail>
  /** Cancels; on a run waiting for this desk's approval it is the rejection, and `reason` is required. */
  cancel(runId: string, reason?: string): Promise<RunDetail>
  sheet(runId: string, wave: number): Promise<FundingSheet>
  markWaveFunded(runId: string, wave: number, txId?: string): Promise<RunDetail>
  /**
   * A row whose create is known not to have created anything (refused for a passing cause, or an unknown outcome
   * resolved as never created) waits for a wave again: the next wave makes a new, journaled create for it.
   */
  retryRow(runId: string, idx: number): Promise<RunDetail>
  /** Resolves a row whose outcome is unknown, as the single payment does (the withdrawal id, or never created). */
  resolveRow(runId: string, idx: number, resolution: UnknownResolutionInput): Promise<RunDetail>
  /** Resolves when the start-up recovery of interrupted runs is done. */
  ready(): Promise<void>
  /** Resolves when the run's wave creation (if any) has stopped. */
  idle(runId: string): Promise<void>
  /** Stops every wave at the next row boundary and waits (profile switch, quit). */
  close(): Promise<void>
}

const TERMINAL = ['completed', 'cancelled'] as const
/** States in which no wave is being created and a row may be retried or resolved. */
const SETTLED = ['approved', 'awaiting_funding', 'paused', 'partially_paid'] as const

export function createRunService(deps: RunServiceDeps): RunService {
  const { operator } = deps
  const ledger = deps.ledger
  if (!ledger && !(deps.records && deps.runs)) throw new Error('runs: a ledger or both stores are needed')
  const records: LedgerStore = deps.records ?? sqliteStore(ledger as Ledger)
  const runs: RunStore = deps.runs ?? sqliteRunStore(ledger as Ledger)
  // A desk's ledger is shared by its profiles; a team's runs are the account's, whichever desk imported them.
  const team = runs.engine === 'postgres'
  const now = deps.now ?? Date.now
  const onError = deps.onError ?? (() => undefined)
  const changed = (runId: string): void => deps.onChange?.(runId)

  const recovery = (): Promise<number> => recoverRuns(records, runs, operator, onError)
  const recovered = (deps.recordsReady ? deps.recordsReady.then(recovery, recovery) : recovery()).then(
    () => undefined,
    (e: unknown) => onError(e),
  )

  async function own(runId: string): Promise<RunRecord> {
    await recovered
    const run = await runs.get(runId)
    if (!run) throw new RunError('not_found', `No run ${runId}.`)
    if (!team && run.profile !== deps.runtime().profile.id)
      throw new RunError('other_profile', `${runId} belongs to another profile.`)
    return run
  }

  const recordOf = (localId: string | null) => (localId ? records.get(localId) : Promise.resolve(undefined))

  const waves = createWaves({ records, runs, operator, deps, changed, own })
  const { active, notices, launch, continueWave } = waves

  async function lifetimeMs(rows: readonly RunRowRecord[]): Promise<{ ms: number; assumed: boolean }> {
    const found = (await Promise.all(rows.map((r) => recordOf(r.localId)))).filter((r) => r !== undefined)
    const seen = observedLifetimeMs(found)
    return seen === null ? { ms: ASSUMED_LIFETIME_MS, assumed: true } : { ms: seen, assumed: false }
  }

  async function proposal(run: RunRecord, rows: readonly RunRowRecord[]): Promise<WavePlan | null> {
    if (!['approved', 'paused'].includes(run.state) || run.approvedHash === null) return null
    const remaining = rows.filter((r) => r.state === 'pending' && !isDropped(r)).length
    if (remaining === 0) return null
    const a = deps.runtime().client.allowance().withdraw
    const life = await lifetimeMs(rows)
    return planWave(
      {
        remaining,
        limitPerMinute: a.limitPerMinute,
        freeTokens: a.available,
        lifetimeMs: life.ms,
        fundingMarginMs: fundingMargin(deps),
        perRowFundingMs: perRowFunding(deps),
      },
      life.assumed,
    )
  }

  async function detail(runId: string): Promise<RunDetail> {
    const run = await own(runId)
    const rows = await runs.rows(runId)
    const withOutcome = await Promise.all(
      rows.map(async (r) => {
        const rec = await recordOf(r.localId)
        return { ...r, outcome: rowOutcome(r, rec), retry: retryable(r, rec) }
      }),
    )
    const fourEyes = runs.fourEyes
    return {
      run,
      summary: summarize(rows, deps.runtime().profile.partnerRateBps),
      progress: progressOf(withOutcome.map((r) => r.outcome)),
      rows: withOutcome,
      waves: await runs.waves(runId),
      nextCreateInMs: Math.ceil(deps.runtime().client.allowance().withdraw.nextTokenInMs),
      proposal: await proposal(run, rows),
      approval: fourEyes ? runApprovalView(await fourEyes.approvalOf(runId), runs.identity) : null,
      notice: notices.get(runId) ?? null,
      takeover:
        run.state === 'creating' &&
        !active.has(runId) &&
        (runs.leases === null || !(await runs.leases.of(runId)).live),
    }
  }

  /** With no row left for a wave: "completed" only when every row kept was created at the service. */
  async function endState(rows: readonly RunRowRecord[]): Promise<'completed' | 'partially_paid'> {
    for (const r of rows) {
      if (isDropped(r)) continue
      if (unpaidOutcome(rowOutcome(r, await recordOf(r.localId)))) return 'partially_paid'
    }
    return 'completed'
  }

  async function settledRow(runId: string, idx: number): Promise<{ run: RunRecord; row: RunRowRecord }> {
    const run = await own(runId)
    if (!(SETTLED as readonly string[]).includes(run.state) || active.has(runId))
      throw new RunError('illegal_state', `Run is ${run.state}.`)
    const row = (await runs.rows(runId)).find((r) => r.idx === idx)
    if (!row) throw new RunError('not_found', `No row ${idx} in ${runId}.`)
    return { run, row }
  }

  return {
    importFile: async (bytes, name) => {
      const rt = deps.runtime()
      const result = await importRunFile(bytes, {
        payees: deps.payees,
        network: rt.profile.network,
        profile: rt.profile.id,
        defaultRefundAddress: rt.profile.defaultRefundAddress ?? null,
        // The ledger is asked below, asynchronously (the importer itself is synchronous).
        findRecentSimilar: () => [],
        now,
      })
      if (result.rows.length === 0) return { run: null, result }
      await recovered
      await markLedgerDuplicates(result.rows, (q) => records.findRecentSimilar(q), {
        sinceIso: new Date(now() - DUPLICATE_WINDOW_MS).toISOString(),
        partnerRateBps: rt.profile.partnerRateBps,
        // On a team every desk's payments count, over a window on the server's clock (like the create's guard,
        // withdrawals/create.ts similarScope).
        ...(team ? { windowMs: DUPLICATE_WINDOW_MS } : { profile: rt.profile.id }),
      })
      const run = await runs.create(
        { profile: rt.profile.id, name: name.slice(0, 200) || 'lote', rows: result.rows as ImportedRow[] },
        operator,
      )
      changed(run.runId)
      return { run, result }
    },
    list: async () => {
      await recovered
      return runs.list(team ? undefined : deps.runtime().profile.id)
    },
    detail,
    decide: async (runId, idx, decision) => {
      const run = await own(runId)
      if (run.state !== 'draft' && run.state !== 'approved')
        throw new RunError('illegal_state', `Run is ${run.state}.`)
      await runs.changeRow(runId, idx, ['pending'], { decision }, operator, 'run.row_decided', { decision })
      changed(runId)
      return detail(runId)
    },
    approve: async (runId, confirmPayoutCents) => {
      const run = await own(runId)
      if (run.state !== 'draft')
        throw new RunError('illegal_state', `Run is ${run.state}: nothing to approve.`)
      const rows = await runs.rows(runId)
      const s = summarize(rows, deps.runtime().profile.partnerRateBps)
      if (s.undecided > 0)
        throw new RunError('duplicates_undecided', `${s.undecided} possible duplicate(s) have no decision.`)
      if (s.count === 0) throw new RunError('no_rows', 'Every row is dropped: nothing to approve.')
      if (!Number.isSafeInteger(confirmPayoutCents) || confirmPayoutCents !== s.payoutCents) {
        throw new RunError('total_mismatch', 'The total typed is not the run’s total to arrive by Pix.')
      }
      const hash = rowsHash(rows)
      const details = {
        rowsHash: hash,
        rows: rows.filter((r) => !isDropped(r)).map((r) => r.idx),
        dropped: rows.filter(isDropped).map((r) => r.idx),
        count: s.count,
        depositCents: s.depositCents,
        depositDepix: centsToDePix(s.depositCents),
        payoutCents: s.payoutCents,
        feeCents: s.feeCents,
      }
      const fourEyes = runs.fourEyes
      if (fourEyes) {
        const a = await fourEyes.approvalOf(runId)
        if (a.needed && a.requestedHash === null) {
          // The first approval only asks: the rows freeze and another analyst grants it (the database decides who).
          await fourEyes.requestApproval(runId, hash, operator, details)
          changed(runId)
          return detail(runId)
        }
      }
      await runs.setState(runId, ['draft'], 'approved', operator, 'run.approved', details, { hash })
      changed(runId)
      return detail(runId)
    },
    startWave: async (runId, size) => {
      const run = await own(runId)
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      if (run.state !== 'approved') {
        throw new RunError(
          run.state === 'awaiting_funding' ? 'wave_not_funded' : 'illegal_state',
          `Run is ${run.state}.`,
        )
      }
      const rows = await runs.rows(runId)
      if (run.approvedHash === null || rowsHash(rows) !== run.approvedHash) {
        throw new RunError('approval_stale', 'The rows differ from the approved ones: approve the run again.')
      }
      const plan = await proposal(run, rows)
      if (plan === null) throw new RunError('no_rows', 'No rows wait for a wave.')
      const n = size === undefined ? plan.size : Math.trunc(size)
      if (!(n >= 1 && n <= plan.size))
        throw new RunError('wave_invalid', `A wave can have 1 to ${plan.size} rows now.`)
      // Dropped rows are settled now, so "completed" can be judged by pending rows alone.
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      for (const r of rows)
        if (r.state === 'pending' && r.decision === 'drop')
          await runs.changeRow(runId, r.idx, ['pending'], { state: 'dropped' }, operator, 'run.row_dropped')
      const picked = (await runs.rows(runId))
        .filter((r) => r.state === 'pending')
        .slice(0, n)
        .map((r) => r.idx)
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      await runs.startWave(runId, run.wave + 1, picked, operator)
      launch(runId, run.wave + 1)
      changed(runId)
      return detail(runId)
    },
    pause: async (runId) => {
      await own(runId)
      const a = active.get(runId)
      if (a) a.stop ??= 'pause'
      return detail(runId)
    },
    resume: async (runId) => {
      await continueWave(runId, 'operator')
      return detail(runId)
    },
    cancel: async (runId, reason) => {
      const run = await own(runId)
      if ((TERMINAL as readonly string[]).includes(run.state))
        throw new RunError('illegal_state', `Run is ${run.state}.`)
      const a = active.get(runId)
      if (a) {
        a.stop = 'cancel'
        await a.done
      }
      // Another analyst cancelling a run that waits for approval is its rejection (audited as such).
      const asked = runs.fourEyes ? await runs.fourEyes.approvalOf(runId) : null
      const rejected =
        asked?.requestedBy != null && asked.requestedBy !== runs.identity && run.state === 'draft'
      const why = reason?.trim() ?? ''
      if (rejected && why === '') throw new RunError('reason_required', 'A rejection needs a reason.')
      for (const r of await runs.rows(runId)) {
        if (r.state === 'pending' || r.state === 'queued' || r.state === 'held') {
          await runs.changeRow(runId, r.idx, [r.state], { state: 'dropped' }, operator, 'run.row_cancelled')
        }
      }
      const current = (await runs.get(runId)) as RunRecord
      await runs.setState(
        runId,
        [current.state],
        'cancelled',
        operator,
        rejected ? 'run.approval_rejected' : 'run.cancelled',
        rejected ? { requestedBy: asked.requestedBy, reason: why } : why === '' ? {} : { reason: why },
      )
      changed(runId)
      return detail(runId)
    },
    sheet: async (runId, wave) => {
      await own(runId)
      const rt = deps.runtime()
      const rows = (await runs.rows(runId)).filter((r) => r.wave === wave && r.localId !== null)
      const entries = await Promise.all(
        rows.map(async (row) => {
          const f = (await records.get(row.localId as string))
            ? await rt.withdrawals.funding(row.localId as string)
            : null
          return {
            row,
            funding: f?.funding ?? null,
            problem: f?.problem ?? 'not_created',
            payee: row.payee.name,
          }
        }),
      )
      return buildSheet(runId, wave, entries)
    },
    markWaveFunded: async (runId, wave, txId) => {
      const run = await own(runId)
      if (run.state !== 'awaiting_funding' || wave !== run.wave)
        throw new RunError('illegal_state', `Wave ${wave} is not awaiting funding.`)
      const tx = txId?.trim() || null
      await runs.markWaveFunded(runId, wave, tx, operator)
      const rt = deps.runtime()
      const rows = await runs.rows(runId)
      for (const r of rows) {
        if (r.wave !== wave || r.localId === null) continue
        const rec = await records.get(r.localId)
        if (rec?.localState !== 'created' || rec.fundedAt !== null) continue
        // The service writes asynchronously (its store may be the team's); a refusal is logged like before.
        rt.withdrawals.markFunded(r.localId, tx ? { txId: tx } : {}).catch((e: unknown) => onError(e))
      }
      const left = rows.some((r) => r.state === 'pending' && r.decision !== 'drop')
      await runs.setState(
        runId,
        ['awaiting_funding'],
        left ? 'approved' : await endState(rows),
        operator,
        'run.wave_funded',
        { wave },
      )
      changed(runId)
      return detail(runId)
    },
    retryRow: async (runId, idx) => {
      const { run, row } = await settledRow(runId, idx)
      const record = await recordOf(row.localId)
      if (!retryable(row, record)) {
        throw new RunError(
          'row_not_retryable',
          `Row ${idx} is ${rowOutcome(row, record)}: only a row known not to be created may be sent again.`,
        )
      }
      // The old record stays (rejected or not created) and is named in the audit entry; the row gets a new local
      // id on its way into flight, in the next wave.
      await runs.changeRow(
        runId,
        idx,
        ['submitted'],
        { state: 'pending', localId: null, wave: null, heldReason: null },
        operator,
        'run.row_retried',
        { previousLocalId: row.localId, previousState: record?.localState ?? null },
      )
      if (run.state === 'partially_paid')
        await runs.setState(runId, ['partially_paid'], 'approved', operator, 'run.reopened', { row: idx })
      changed(runId)
      return detail(runId)
    },
    resolveRow: async (runId, idx, resolution) => {
      const { run, row } = await settledRow(runId, idx)
      const record = await recordOf(row.localId)
      if (row.state !== 'submitted' || record?.localState !== 'outcome_unknown')
        throw new RunError('row_not_unknown', `Row ${idx} has no unknown outcome.`)
      await deps.runtime().withdrawals.resolveUnknown(record.localId, resolution)
      if (run.state === 'partially_paid') {
        const rows = await runs.rows(runId)
        if ((await endState(rows)) === 'completed')
          await runs.setState(runId, ['partially_paid'], 'completed', operator, 'run.completed', { row: idx })
      }
      changed(runId)
      return detail(runId)
    },
    ready: () => recovered,
    idle: async (runId) => {
      await active.get(runId)?.done
    },
    close: () => waves.close(),
  }
}
