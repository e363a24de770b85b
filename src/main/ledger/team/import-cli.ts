/**
 * The owner tool's `import` (cli.ts): opens the desk's ledger file (its lock refuses a ledger the app still has
 * open), checks the team schema is this app's, moves everything with `importDeskLedger` and prints one line per
 * kind. Conflicts are listed by id so the operator can look at them; nothing is overwritten.
 */
import { existsSync } from 'node:fs'
import pg from 'pg'
import { openLedger } from '../sqlite'
import { importDeskLedger, type ImportResult } from './import'
import { schemaVersion } from '../pg/migrate'
import { PG_LATEST_VERSION, SCHEMA } from '../pg/schema'

const line = (what: string, r: { imported: number; skipped: number; conflicts: string[] }): string =>
  `${what}: ${r.imported} imported, ${r.skipped} already there` +
  (r.conflicts.length > 0 ? `, conflicts: ${r.conflicts.join(', ')}` : '')

export function importSummary(r: ImportResult): string {
  const { payees, runs, receipts } = r.rest
  return [
    `origin ${r.origin}`,
    line('payments', r),
    line('top-ups', r.deposits),
    line('payees', payees),
    line('runs', runs),
    line('receipts', receipts) +
      (receipts.unreadable.length > 0 ? `, unreadable: ${receipts.unreadable.join(', ')}` : ''),
  ].join('\n')
}

export async function importDeskFile(
  file: string,
  operator: string,
  config: pg.ClientConfig,
): Promise<string> {
  // openLedger would create an empty ledger at a mistyped path.
  if (!existsSync(file)) throw new Error(`no desk ledger at ${file}`)
  const pool = new pg.Pool({ ...config, max: 1, options: `-c search_path=${SCHEMA},pg_temp` })
  pool.on('error', () => undefined)
  try {
    const c = await pool.connect()
    try {
      const v = await schemaVersion(c)
      if (v !== PG_LATEST_VERSION) {
        throw new Error(
          `team ledger schema is v${v}, this app needs v${PG_LATEST_VERSION}: run migrate first`,
        )
      }
    } finally {
      c.release()
    }
    const desk = openLedger(file)
    try {
      return importSummary(await importDeskLedger(pool, desk, operator || 'import'))
    } finally {
      desk.close()
    }
  } finally {
    await pool.end()
  }
}
