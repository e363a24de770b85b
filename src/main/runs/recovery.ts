/**
 * After a restart (or a crash) a run that was creating a wave stops where it was: a row `in_flight` whose record
 * exists is `submitted` (its record says what happened; the withdrawals' own recovery has already turned a leftover
 * `submitting` into `outcome_unknown` for the operator to resolve), one whose record does not exist was never
 * journaled and so never sent, and waits again; the run is `paused` until the operator says "resume".
 */
import type { RunStore } from '../ledger-store/run-store'
import type { LedgerStore } from '../ledger-store/types'

/** On a team ledger only the runs whose wave this desk's role was creating: another desk's may be mid-POST. */
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
      for (const row of await runs.rows(run.runId)) {
        if (row.state !== 'in_flight' || row.localId === null) continue
        const record = await records.get(row.localId)
        if (record) {
          await runs.changeRow(
            run.runId,
            row.idx,
            ['in_flight'],
            { state: 'submitted' },
            operator,
            'run.row_recovered',
            {
              localState: record.localState,
            },
          )
        } else {
          await runs.changeRow(
            run.runId,
            row.idx,
            ['in_flight'],
            { state: 'queued', localId: null },
            operator,
            'run.row_recovered',
            {
              journaled: false,
            },
          )
        }
      }
      await runs.setState(run.runId, ['creating'], 'paused', operator, 'run.interrupted', {
        wave: run.wave,
        restart: true,
      })
      n += 1
    } catch (e) {
      onError(e)
    }
  }
  return n
}
