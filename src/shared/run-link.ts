/**
 * The payment run ("lote") a withdrawal came from (issue #26): read from the run's rows (`run_rows.local_id` names
 * the record a row became), never stored on the withdrawal record itself — the record's audited state and the
 * bytes of every export made before stay what they were. Lists, the detail page and the CSV show it.
 */
import { z } from 'zod'

export const runLinkSchema = z.object({
  runId: z.string().min(1),
  /** The run's name as the analyst gave it at import. */
  name: z.string(),
  /** The row's line in the imported spreadsheet. */
  line: z.number().int().positive(),
  /**
   * The payee's name on the row: the book entry it matched, else the name typed in the spreadsheet's Favorecido
   * column (names first, issue #26); null when the cell was blank.
   */
  payee: z.string().nullable(),
})
export type RunLink = z.infer<typeof runLinkSchema>

/** The run links of a page of records, by local id (records not from a run are absent). */
export const runLinksSchema = z.record(z.string(), runLinkSchema)
export type RunLinks = z.infer<typeof runLinksSchema>

/** "Folha de novembro · linha 12": the run's name and the row's line, as a Lote cell reads. */
export function runLinkText(link: RunLink, lineWord: string): string {
  return `${link.name} · ${lineWord} ${link.line}`
}
