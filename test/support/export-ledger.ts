import type { ExportLedger } from '../../src/main/ledger/export-view'

/**
 * `base` whose view awaits `beforeRecord(n)` each time the export asks for its next record, `n` the records it has
 * read so far: a test acts on the ledger, or looks at the export's folder, while the export is reading.
 */
export function whileReading(
  base: ExportLedger,
  beforeRecord: (n: number) => Promise<void> | void,
): ExportLedger {
  return {
    ...base,
    open: async () => {
      const view = await base.open()
      return {
        ...view,
        records: (kind, filter) =>
          (async function* () {
            let n = 0
            for await (const r of view.records(kind, filter)) {
              await beforeRecord(n++)
              yield r
            }
          })(),
      }
    },
  }
}
