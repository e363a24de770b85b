/**
 * Which payment run ("lote") each withdrawal came from (issue #26), for both engines: a run's row names the record
 * it became (`run_rows.local_id`, unique), so the link is read by joining `run_rows` with `runs`, never stored on
 * the withdrawal (its audited state, and every export made before, stay as they were). Each engine runs the same
 * select (RUN_LINKS_SELECT) and hands its rows here; rows come back from a file or a shared server, so they are
 * checked like any other: one malformed is a ledger changed outside the app.
 */
import { z } from 'zod'
import type { RunLink } from '../../../shared/run-link'
import { LedgerError } from './errors'

/**
 * Columns `local_id`, `run_id`, `name`, `line`, `payee_name`; each engine gives how it reads the name in the row's
 * payee JSON and adds its WHERE.
 */
export const runLinksSelect = (payeeName: string): string =>
  `SELECT rr.local_id, rr.run_id, r.name, rr.line, ${payeeName} AS payee_name FROM run_rows rr JOIN runs r ON r.run_id = rr.run_id`

const runLinkRow = z.object({
  local_id: z.string().min(1),
  run_id: z.string().min(1),
  name: z.string(),
  line: z
    .union([z.number(), z.bigint(), z.string().regex(/^\d+$/)])
    .transform(Number)
    .pipe(z.number().int().positive()),
  payee_name: z.string().nullable(),
})

/** The links of `rows` (RUN_LINKS_SELECT's columns), by local id. */
export function runLinksOf(rows: Iterable<unknown>): Map<string, RunLink> {
  const out = new Map<string, RunLink>()
  for (const row of rows) {
    const r = runLinkRow.safeParse(row)
    if (!r.success) throw new LedgerError('record_tampered', 'a payment run row is malformed')
    const { local_id, run_id, name, line, payee_name } = r.data
    out.set(local_id, { runId: run_id, name, line, payee: payee_name })
  }
  return out
}
