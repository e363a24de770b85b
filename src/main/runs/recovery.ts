/**
 * A run that was creating a wave and is no longer being created by anyone stops where it was: a row `in_flight`
 * whose record exists is `submitted` (its record says what happened), one whose record does not exist was never
 * journaled and so never sent, and waits again; the run is `paused` until it is resumed.
 *
 * Three ways to get here: a restart (the records' own recovery has already turned this role's leftover
 * `submitting` into `outcome_unknown`); the database coming back after it failed mid-wave (this desk's side journal
 * is replayed first, so a create whose answer arrived is `created`); and the takeover of a run whose creating desk
 * is gone (its lease expired). In the last two a record still `submitting` is not being created by anyone any more:
 * it becomes `outcome_unknown`, for the operator to resolve from the run page as a single payment is.
 */
import type { RunRecord } from '../../shared/run'
import type { RunStore } from '../ledger/run-store'
import type { LedgerStore } from '../ledger/ports'

export type RecoveryCause = 'restart' | 'database' | 'takeover'

export async function recoverRun(
  records: LedgerStore,
  runs: RunStore,
  operator: string,
  run: RunRecord,
  cause: RecoveryCause,
): Promise<void> {
  for (const row of await runs.rows(run.runId)) {
    if (row.state !== 'in_flight' || row.localId === null) continue
    let record = await records.get(row.localId)
    if (record?.localState === 'submitting' && cause !== 'restart')
      record = await records.markOutcomeUnknown(
        row.localId,
        null,
        cause === 'takeover' ? 'desk_gone' : 'interrupted',
      )
    if (record) {
      await runs.changeRow(
        run.runId,
        row.idx,
        ['in_flight'],
        { state: 'submitted' },
        operator,
        'run.row_recovered',
        { localState: record.localState, cause },
      )
    } else {
      await runs.changeRow(
        run.runId,
        row.idx,
        ['in_flight'],
        { state: 'queued', localId: null },
        operator,
        'run.row_recovered',
        { journaled: false, cause },
      )
    }
  }
  await runs.setState(run.runId, ['creating'], 'paused', operator, 'run.interrupted', {
    wave: run.wave,
    ...(cause === 'restart' ? { restart: true } : { cause }),
  })
}

/** At start-up; on a team ledger only the runs whose wave this desk's role was creating (another's may be mid-POST). */
export async function recoverRuns(
  records: LedgerStore,
  runs: RunStore,
  operator: string,
  onError: (e: unknown) => void,
): Promise<number> {
  let n = 0
  for (const run of await runs.interrupted()) {
    if (run.state !== 'creating') continue
    try {
      await recoverRun(records, runs, operator, run, 'restart')
      n += 1
    } catch (e) {
      onError(e)
    }
  }
  return n
}
