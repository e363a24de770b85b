/**
 * Creating a run's waves in the background (one at a time per run), and what keeps a run from getting stuck there
 * (issue #25): the team's wave lease (lease.ts), a wave cut when the service's withdrawals live shorter than planned
 * (executor.ts), the recovery of a wave stopped by a failed database (`heal`), and resume — which also takes over a
 * run no desk is creating any more. The run service (service.ts) owns everything else.
 */
import type { RunRecord } from '../../shared/run'
import type { RunStore } from '../ledger/run-store'
import type { LedgerStore } from '../ledger/ports'
import { formatDateTime } from '../records/format'
import { RunError } from './errors'
import { createWave, type WaveCut } from './executor'
import { DEFAULT_RUN_LEASE_MS, keepLease, storeUnavailable, type LeaseKeeper } from './lease'
import { fundingMargin, perRowFunding } from './planner'
import { recoverRun } from './recovery'
import type { RunNotice, RunRuntime, RunServiceDeps } from './types'
import { rowsHash } from './summary'

/** Waits between attempts to recover a run while its database is out of reach. */
const HEAL_FIRST_WAIT_MS = 500
const HEAL_MAX_WAIT_MS = 10_000

export interface ActiveWave {
  stop: 'pause' | 'cancel' | null
  done: Promise<void>
}

export interface WavesCtx {
  records: LedgerStore
  runs: RunStore
  operator: string
  deps: RunServiceDeps
  changed: (runId: string) => void
  /** The run, once start-up recovery is done, if this service may act on it. */
  own: (runId: string) => Promise<RunRecord>
}

export interface Waves {
  /** The waves being created by this service, by run. */
  active: Map<string, ActiveWave>
  /** Why the last wave of a run ended early, for the run page (the audit keeps it too). */
  notices: Map<string, RunNotice>
  launch(runId: string, wave: number): void
  continueWave(runId: string, cause: 'operator' | 'database'): Promise<void>
  /** Stops every wave at the next row boundary and waits. */
  close(): Promise<void>
}

export function createWaves(ctx: WavesCtx): Waves {
  const { records, runs, operator, deps, changed, own } = ctx
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const onError = deps.onError ?? (() => undefined)
  const leaseMs = deps.runLeaseMs ?? DEFAULT_RUN_LEASE_MS
  const notices = new Map<string, RunNotice>()
  const active = new Map<string, ActiveWave>()
  let closing = false

  function sameRuntime(rt: RunRuntime): boolean {
    try {
      return deps.runtime().withdrawals === rt.withdrawals
    } catch {
      return false
    }
  }

  /**
   * After a wave stopped on an error: the run is recovered here (this desk's side journal replayed first, a record
   * left `submitting` by the failed create made `outcome_unknown`), retried with a growing wait while the server is
   * out of reach, so a database restart needs no app restart. When the cause was the server, the wave goes on by
   * itself (no POST is repeated: the row that was in flight keeps its record); otherwise the run waits, paused.
   */
  async function heal(runId: string, rt: RunRuntime, resumeAfter: boolean): Promise<void> {
    for (let wait = HEAL_FIRST_WAIT_MS; ; wait = Math.min(HEAL_MAX_WAIT_MS, wait * 2)) {
      if (closing || !sameRuntime(rt)) return
      try {
        await deps.replayRecords?.()
        const run = await runs.get(runId)
        if (run?.state !== 'creating' || active.has(runId)) return
        await recoverRun(records, runs, operator, run, 'database')
        break
      } catch (e) {
        onError(e)
        if (!storeUnavailable(e)) return
      }
      await sleep(wait)
    }
    changed(runId)
    if (resumeAfter && !closing && sameRuntime(rt)) await continueWave(runId, 'database')
  }

  /**
   * The wave's withdrawals live shorter than it was planned for: its rows not created yet wait for another wave
   * (sized on the lifetime now known), and the created ones are funded now. The run says why (`notice`).
   */
  async function cutWave(runId: string, wave: number, cut: WaveCut): Promise<void> {
    let deferred = 0
    for (const r of await runs.rows(runId)) {
      if (r.wave !== wave || r.state !== 'queued') continue
      await runs.changeRow(
        runId,
        r.idx,
        ['queued'],
        { state: 'pending', wave: null },
        operator,
        'run.row_deferred',
        {
          reason: 'lifetime',
        },
      )
      deferred += 1
    }
    const created = (await runs.rows(runId)).some((r) => r.wave === wave)
    await runs.setState(
      runId,
      ['creating'],
      created ? 'awaiting_funding' : 'approved',
      operator,
      'run.wave_cut',
      {
        wave,
        reason: 'lifetime',
        firstExpiration: cut.firstExpiration,
        lifetimeMs: cut.lifetimeMs,
        deferred,
      },
    )
    notices.set(runId, { code: 'wave_cut_lifetime', wave, lifetimeMs: cut.lifetimeMs, deferred })
  }

  /** Runs the current wave's creation in the background; one at a time per run. */
  function launch(runId: string, wave: number): void {
    const rt = deps.runtime()
    const entry: { stop: 'pause' | 'cancel' | null; done: Promise<void> } = {
      stop: null,
      done: Promise.resolve(),
    }
    entry.done = (async () => {
      let lease: LeaseKeeper | null = null
      let failure: unknown = null
      try {
        if (runs.leases) {
          const l = await runs.leases.claim(runId, leaseMs)
          // Another desk creates this run now (it resumed or took it over first): nothing to do here.
          if (!l.mine) return
          lease = keepLease(runs.leases, runId, leaseMs, onError)
        }
        const held = lease
        const end = await createWave(
          {
            records,
            runs,
            client: rt.client,
            withdrawals: rt.withdrawals,
            operator,
            sleep,
            // A profile switch or quit closes this runtime: stop at the row boundary (a restart resumes). A lease
            // lost to a takeover stops it too.
            stopRequested: () =>
              closing || entry.stop !== null || !sameRuntime(rt) || (held !== null && !held.held()),
            changed: () => changed(runId),
            onError,
            now,
            fundingMarginMs: fundingMargin(deps),
            perRowFundingMs: perRowFunding(deps),
          },
          runId,
          wave,
        )
        const stop = entry.stop
        if (stop === 'cancel') return
        if (held !== null && !held.held()) return
        if (typeof end === 'object') await cutWave(runId, wave, end.cut)
        else if (end === 'created')
          await runs.setState(runId, ['creating'], 'awaiting_funding', operator, 'run.wave_created', { wave })
        else
          await runs.setState(
            runId,
            ['creating'],
            'paused',
            operator,
            stop === 'pause' ? 'run.paused' : 'run.interrupted',
            { wave },
          )
      } catch (e) {
        onError(e)
        failure = e
      } finally {
        await lease?.stop()
        active.delete(runId)
        changed(runId)
      }
      if (failure !== null && entry.stop !== 'cancel')
        await heal(runId, rt, storeUnavailable(failure) && entry.stop === null)
    })()
    active.set(runId, entry)
  }

  /**
   * Resume: a paused run goes on with its wave. A run left `creating` that no one here is creating — its desk is
   * gone (team: its lease expired, claimed now by this desk) or its wave stopped on a failed database — is recovered
   * first, as after a restart.
   */
  async function continueWave(runId: string, cause: 'operator' | 'database'): Promise<void> {
    let run = await own(runId)
    // A lease claimed here and not handed to a wave is given back, whatever happens.
    let claimed = false
    try {
      if (run.state === 'creating' && !active.has(runId)) {
        if (runs.leases) {
          const l = await runs.leases.claim(runId, leaseMs)
          if (!l.mine) {
            throw new RunError(
              'busy',
              `Another desk (${l.holder}) is creating this run until ${l.expiresAt}.`,
              {
                'pt-BR': `Outro computador da equipe (${l.holder ?? '?'}) está criando os pagamentos deste lote. Se ele parou, aguarde até ${formatDateTime(l.expiresAt, 'pt-BR')} para assumir o lote.`,
                en: `Another desk (${l.holder ?? '?'}) is creating this run's withdrawals. If it stopped, wait until ${formatDateTime(l.expiresAt, 'en')} to take the run over.`,
              },
            )
          }
          claimed = true
        }
        await deps.replayRecords?.()
        // On a team the lease says the creating desk is gone; on a desk the wave stopped on a failed write.
        await recoverRun(
          records,
          runs,
          operator,
          run,
          runs.leases && cause === 'operator' ? 'takeover' : 'database',
        )
        run = await own(runId)
      }
      if (run.state !== 'paused')
        throw new RunError('illegal_state', `Run is ${run.state}: nothing to resume.`)
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      const rows = await runs.rows(runId)
      if (run.approvedHash === null || rowsHash(rows) !== run.approvedHash) {
        throw new RunError('approval_stale', 'The rows differ from the approved ones.')
      }
      const queued = rows.some((r) => r.wave === run.wave && r.state === 'queued')
      if (active.has(runId)) throw new RunError('busy', 'A wave is being created.')
      if (queued) {
        await runs.setState(runId, ['paused'], 'creating', operator, 'run.resumed', {
          wave: run.wave,
          ...(cause === 'database' ? { after: 'database_failure' } : {}),
        })
        launch(runId, run.wave)
        claimed = false
      } else {
        // The wave was fully created before the stop: its funding is what is left.
        await runs.setState(
          runId,
          ['paused'],
          run.wave > 0 ? 'awaiting_funding' : 'approved',
          operator,
          'run.resumed',
          { wave: run.wave },
        )
      }
      changed(runId)
    } finally {
      if (claimed) await runs.leases?.release(runId).catch((e: unknown) => onError(e))
    }
  }

  return {
    active,
    notices,
    launch,
    continueWave,
    close: async () => {
      closing = true
      await Promise.allSettled([...active.values()].map((a) => a.done))
    },
  }
}
