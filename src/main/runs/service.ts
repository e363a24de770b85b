/**
 * The payment-run service: import → review and approval → waves (created through the single payment's create,
 * funded by the operator from one sheet per wave) → report. Lifecycle (docs/ARCHITECTURE.md, "Payment runs"):
 *
 *   draft ──approve──▶ approved ──wave──▶ creating ──▶ awaiting_funding ──funded──▶ approved (next wave on request)
 *                                            │  ▲                                   └──▶ completed (no rows left)
 *                                      pause │  │ resume        any state but completed ──cancel──▶ cancelled
 *                                            ▼  │
 *                                           paused  ◀── a restart in the middle of a wave
 */
import type { ImportedRow, RowDecision, RunRecord, RunRowRecord } from '../../shared/run'
import { centsToDePix } from '../../shared/money'
import type { DepixClient } from '../api'
import type { Ledger } from '../ledger'
import type { LiquidNetwork } from '../liquid'
import type { WithdrawalService } from '../withdrawals'
import { RunError } from './errors'
import { createWave } from './executor'
import { importRunFile, type ImportResult, type PayeeLookup } from './import'
import { progressOf, rowOutcome, type RowOutcome, type RunProgress } from './outcome'
import {
  ASSUMED_LIFETIME_MS,
  DEFAULT_FUNDING_MARGIN_MS,
  observedLifetimeMs,
  planWave,
  type WavePlan,
} from './planner'
import { recoverRuns } from './recovery'
import { buildSheet, type FundingSheet } from './sheet'
import { isDropped, rowsHash, summarize, type RunSummary } from './summary'

export interface RunRuntime {
  profile: {
    id: string
    network: LiquidNetwork
    partnerRateBps: number
    defaultRefundAddress?: string | undefined
  }
  client: DepixClient
  withdrawals: WithdrawalService
}

export interface RunServiceDeps {
  ledger: Ledger
  runtime: () => RunRuntime
  operator: string
  payees: PayeeLookup
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  fundingMarginMs?: number
  onChange?: (runId: string) => void
  onError?: (e: unknown) => void
}

export interface RunDetail {
  run: RunRecord
  summary: RunSummary
  progress: RunProgress
  rows: Array<RunRowRecord & { outcome: RowOutcome }>
  waves: ReturnType<Ledger['runs']['waves']>
  /** Ms until the next POST /withdraw token; 0 when one is free. */
  nextCreateInMs: number
  /** The size the app proposes for the next wave (null when no wave can start now). */
  proposal: WavePlan | null
}

export interface RunService {
  importFile(bytes: Uint8Array, name: string): Promise<{ run: RunRecord | null; result: ImportResult }>
  list(): RunRecord[]
  detail(runId: string): RunDetail
  decide(runId: string, idx: number, decision: RowDecision): RunDetail
  approve(runId: string, confirmDepositCents: number): RunDetail
  startWave(runId: string, size?: number): RunDetail
  pause(runId: string): RunDetail
  resume(runId: string): RunDetail
  cancel(runId: string): Promise<RunDetail>
  sheet(runId: string, wave: number): Promise<FundingSheet>
  markWaveFunded(runId: string, wave: number, txId?: string): RunDetail
  /** Resolves when the run's wave creation (if any) has stopped. */
  idle(runId: string): Promise<void>
  /** Stops every wave at the next row boundary and waits (profile switch, quit). */
  close(): Promise<void>
}

const TERMINAL = ['completed', 'cancelled'] as const

export function createRunService(deps: RunServiceDeps): RunService {
  const { ledger, operator } = deps
  const runs = ledger.runs
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const onError = deps.onError ?? (() => undefined)
  const changed = (runId: string): void => deps.onChange?.(runId)
  const active = new Map<string, { stop: 'pause' | 'cancel' | null; done: Promise<void> }>()
  let closing = false

  recoverRuns(ledger, operator, onError)

  function own(runId: string): RunRecord {
    const run = runs.get(runId)
    if (!run) throw new RunError('not_found', `No run ${runId}.`)
    if (run.profile !== deps.runtime().profile.id)
      throw new RunError('other_profile', `${runId} belongs to another profile.`)
    return run
  }

  function lifetimeMs(runId: string): { ms: number; assumed: boolean } {
    const records = runs
      .rows(runId)
      .map((r) => (r.localId ? ledger.get(r.localId) : undefined))
      .filter((r) => r !== undefined)
    const seen = observedLifetimeMs(records)
    return seen === null ? { ms: ASSUMED_LIFETIME_MS, assumed: true } : { ms: seen, assumed: false }
  }

  function proposal(run: RunRecord, rows: readonly RunRowRecord[]): WavePlan | null {
    if (!['approved', 'paused'].includes(run.state) || run.approvedHash === null) return null
    const remaining = rows.filter((r) => r.state === 'pending' && !isDropped(r)).length
    if (remaining === 0) return null
    const a = deps.runtime().client.allowance().withdraw
    const life = lifetimeMs(run.runId)
    return planWave(
      {
        remaining,
        limitPerMinute: a.limitPerMinute,
        freeTokens: a.available,
        lifetimeMs: life.ms,
        fundingMarginMs: deps.fundingMarginMs ?? DEFAULT_FUNDING_MARGIN_MS,
      },
      life.assumed,
    )
  }

  function detail(runId: string): RunDetail {
    const run = own(runId)
    const rows = runs.rows(runId)
    const withOutcome = rows.map((r) => ({
      ...r,
      outcome: rowOutcome(r, r.localId ? ledger.get(r.localId) : undefined),
    }))
    return {
      run,
      summary: summarize(rows, deps.runtime().profile.partnerRateBps),
      progress: progressOf(withOutcome.map((r) => r.outcome)),
      rows: withOutcome,
      waves: runs.waves(runId),
      nextCreateInMs: Math.ceil(deps.runtime().client.allowance().withdraw.nextTokenInMs),
      proposal: proposal(run, rows),
    }
  }

  function sameRuntime(rt: RunRuntime): boolean {
    try {
      return deps.runtime().withdrawals === rt.withdrawals
    } catch {
      return false
    }
  }

  /** Runs the current wave's creation in the background; one at a time per run. */
  function launch(runId: string, wave: number): void {
    const rt = deps.runtime()
    const entry: { stop: 'pause' | 'cancel' | null; done: Promise<void> } = {
      stop: null,
      done: Promise.resolve(),
    }
    entry.done = (async () => {
      try {
        const end = await createWave(
          {
            ledger,
            client: rt.client,
            withdrawals: rt.withdrawals,
            operator,
            sleep,
            // A profile switch or quit closes this runtime: stop at the row boundary (a restart resumes).
            stopRequested: () => closing || entry.stop !== null || !sameRuntime(rt),
            changed: () => changed(runId),
            onError,
          },
          runId,
          wave,
        )
        const stop = entry.stop
        if (stop === 'cancel') return
        if (end === 'created')
          runs.setState(runId, ['creating'], 'awaiting_funding', operator, 'run.wave_created', { wave })
        else
          runs.setState(
            runId,
            ['creating'],
            'paused',
            operator,
            stop === 'pause' ? 'run.paused' : 'run.interrupted',
            { wave },
          )
      } catch (e) {
        onError(e)
        try {
          runs.setState(runId, ['creating'], 'paused', operator, 'run.interrupted', {
            wave,
            error: e instanceof Error ? e.name : 'unknown',
          })
        } catch (e2) {
          onError(e2)
        }
      } finally {
        active.delete(runId)
        changed(runId)
      }
    })()
    active.set(runId, entry)
  }

  return {
    importFile: async (bytes, name) => {
      const rt = deps.runtime()
      const result = await importRunFile(bytes, {
        payees: deps.payees,
        network: rt.profile.network,
        profile: rt.profile.id,
        defaultRefundAddress: rt.profile.defaultRefundAddress ?? null,
        findRecentSimilar: (q) => ledger.findRecentSimilar(q),
        now,
      })
      if (result.rows.length === 0) return { run: null, result }
      const run = runs.create(
        { profile: rt.profile.id, name: name.slice(0, 200) || 'lote', rows: result.rows as ImportedRow[] },
        operator,
      )
      changed(run.runId)
      return { run, result }
    },
    list: () => runs.list(deps.runtime().profile.id),
    detail,
    decide: (runId, idx, decision) => {
      const run = own(runId)
      if (run.state !== 'draft' && run.state !== 'approved')
        throw new RunError('illegal_state', `Run is ${run.state}.`)
      runs.changeRow(runId, idx, ['pending'], { decision }, operator, 'run.row_decided', { decision })
      changed(runId)
      return detail(runId)
    },
    approve: (runId, confirmDepositCents) => {
      const run = own(runId)
      if (run.state !== 'draft')
        throw new RunError('illegal_state', `Run is ${run.state}: nothing to approve.`)
      const rows = runs.rows(runId)
      const s = summarize(rows, deps.runtime().profile.partnerRateBps)
      if (s.undecided > 0)
        throw new RunError('duplicates_undecided', `${s.undecided} possible duplicate(s) have no decision.`)
      if (s.count === 0) throw new RunError('no_rows', 'Every row is dropped: nothing to approve.')
      if (!Number.isSafeInteger(confirmDepositCents) || confirmDepositCents !== s.depositCents) {
        throw new RunError('total_mismatch', 'The total typed is not the run’s total DePix to send.')
      }
      const hash = rowsHash(rows)
      runs.setState(
        runId,
        ['draft'],
        'approved',
        operator,
        'run.approved',
        {
          rowsHash: hash,
          rows: rows.filter((r) => !isDropped(r)).map((r) => r.idx),
          dropped: rows.filter(isDropped).map((r) => r.idx),
          count: s.count,
          depositCents: s.depositCents,
          depositDepix: centsToDePix(s.depositCents),
          payoutCents: s.payoutCents,
          feeCents: s.feeCents,
        },
        { hash },
      )
      changed(runId)
      return detail(runId)
    },
    startWave: (runId, size) => {
      const run = own(runId)
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      if (run.state !== 'approved') {
        throw new RunError(
          run.state === 'awaiting_funding' ? 'wave_not_funded' : 'illegal_state',
          `Run is ${run.state}.`,
        )
      }
      const rows = runs.rows(runId)
      if (run.approvedHash === null || rowsHash(rows) !== run.approvedHash) {
        throw new RunError('approval_stale', 'The rows differ from the approved ones: approve the run again.')
      }
      const plan = proposal(run, rows)
      if (plan === null) throw new RunError('no_rows', 'No rows wait for a wave.')
      const n = size === undefined ? plan.size : Math.trunc(size)
      if (!(n >= 1 && n <= plan.size))
        throw new RunError('wave_invalid', `A wave can have 1 to ${plan.size} rows now.`)
      // Dropped rows are settled now, so "completed" can be judged by pending rows alone.
      for (const r of rows)
        if (r.state === 'pending' && r.decision === 'drop')
          runs.changeRow(runId, r.idx, ['pending'], { state: 'dropped' }, operator, 'run.row_dropped')
      const picked = runs
        .rows(runId)
        .filter((r) => r.state === 'pending')
        .slice(0, n)
        .map((r) => r.idx)
      runs.startWave(runId, run.wave + 1, picked, operator)
      launch(runId, run.wave + 1)
      changed(runId)
      return detail(runId)
    },
    pause: (runId) => {
      own(runId)
      const a = active.get(runId)
      if (a) a.stop ??= 'pause'
      return detail(runId)
    },
    resume: (runId) => {
      const run = own(runId)
      if (run.state !== 'paused')
        throw new RunError('illegal_state', `Run is ${run.state}: nothing to resume.`)
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      if (run.approvedHash === null || rowsHash(runs.rows(runId)) !== run.approvedHash) {
        throw new RunError('approval_stale', 'The rows differ from the approved ones.')
      }
      const queued = runs.rows(runId).some((r) => r.wave === run.wave && r.state === 'queued')
      if (queued) {
        runs.setState(runId, ['paused'], 'creating', operator, 'run.resumed', { wave: run.wave })
        launch(runId, run.wave)
      } else {
        // The wave was fully created before the stop: its funding is what is left.
        runs.setState(
          runId,
          ['paused'],
          run.wave > 0 ? 'awaiting_funding' : 'approved',
          operator,
          'run.resumed',
          { wave: run.wave },
        )
      }
      changed(runId)
      return detail(runId)
    },
    cancel: async (runId) => {
      const run = own(runId)
      if ((TERMINAL as readonly string[]).includes(run.state))
        throw new RunError('illegal_state', `Run is ${run.state}.`)
      const a = active.get(runId)
      if (a) {
        a.stop = 'cancel'
        await a.done
      }
      for (const r of runs.rows(runId)) {
        if (r.state === 'pending' || r.state === 'queued' || r.state === 'held') {
          runs.changeRow(runId, r.idx, [r.state], { state: 'dropped' }, operator, 'run.row_cancelled')
        }
      }
      const current = runs.get(runId) as RunRecord
      runs.setState(runId, [current.state], 'cancelled', operator, 'run.cancelled')
      changed(runId)
      return detail(runId)
    },
    sheet: async (runId, wave) => {
      own(runId)
      const rt = deps.runtime()
      const rows = runs.rows(runId).filter((r) => r.wave === wave && r.localId !== null)
      const entries = await Promise.all(
        rows.map(async (row) => {
          const f = ledger.get(row.localId as string)
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
    markWaveFunded: (runId, wave, txId) => {
      const run = own(runId)
      if (run.state !== 'awaiting_funding' || wave !== run.wave)
        throw new RunError('illegal_state', `Wave ${wave} is not awaiting funding.`)
      const tx = txId?.trim() || null
      runs.markWaveFunded(runId, wave, tx, operator)
      const rt = deps.runtime()
      for (const r of runs.rows(runId)) {
        if (r.wave !== wave || r.localId === null) continue
        const rec = ledger.get(r.localId)
        if (rec?.localState !== 'created' || rec.fundedAt !== null) continue
        // The service writes asynchronously (its store may be the team's); a refusal is logged like before.
        rt.withdrawals.markFunded(r.localId, tx ? { txId: tx } : {}).catch((e: unknown) => onError(e))
      }
      const left = runs.rows(runId).some((r) => r.state === 'pending' && r.decision !== 'drop')
      runs.setState(
        runId,
        ['awaiting_funding'],
        left ? 'approved' : 'completed',
        operator,
        'run.wave_funded',
        { wave },
      )
      changed(runId)
      return detail(runId)
    },
    idle: async (runId) => {
      await active.get(runId)?.done
    },
    close: async () => {
      closing = true
      await Promise.allSettled([...active.values()].map((a) => a.done))
    },
  }
}
