/**
 * The database owner's tool (run once after setup.sql, and after each app upgrade that brings a migration):
 *
 *   PGHOST=db.example.com PGUSER=depix_owner PGDATABASE=depix_team PGPASSWORD=… PGSSLMODE=verify-full \
 *     npx tsx src/main/ledger-store/cli.ts migrate
 *
 * `status` prints the schema version without changing anything. Connection settings come from the standard
 * libpq environment variables (node-postgres reads them); the password never appears on the command line.
 *
 * `import <desk ledger file> [operator]` moves one desk's ledger (the `ledger.sqlite` of a closed app) into the
 * team ledger: records, top-ups, payees, runs and stored receipts, idempotent (run it again after a failure).
 * Run it as the analyst whose desk it was (PGUSER), so the team's four-eyes treats the imported drafts as theirs.
 */
import pg from 'pg'
import { importDeskFile } from './pg/import-cli'
import { migrate, schemaVersion } from './pg/migrate'
import { PG_LATEST_VERSION } from './pg/schema'

const USAGE = 'usage: cli.ts migrate | status | import <desk ledger file> [operator]'

export async function main(argv: readonly string[], config: pg.ClientConfig = {}): Promise<string> {
  const command = argv[0]
  if (command === 'import') {
    return argv[1] ? importDeskFile(argv[1], argv[2] ?? '', config) : USAGE
  }
  if (command !== 'migrate' && command !== 'status') return USAGE
  const c = new pg.Client(config)
  await c.connect()
  try {
    const before = await schemaVersion(c)
    if (command === 'status') return `team ledger schema v${before} (this app: v${PG_LATEST_VERSION})`
    const after = await migrate(c)
    return before === after
      ? `team ledger schema already at v${after}`
      : `team ledger schema v${before} → v${after}`
  } finally {
    await c.end()
  }
}

if (process.argv[1]?.endsWith('cli.ts')) {
  main(process.argv.slice(2)).then(
    (out) => console.log(out),
    (e: unknown) => {
      const msg = e instanceof Error ? e.message : String(e)
      // A refusal with words for the operator (e.g. a run still in progress on the desk): pt-BR first, then English.
      const words = (e as { userMessage?: { 'pt-BR'?: string; en?: string } }).userMessage
      console.error(`team ledger: ${words?.['pt-BR'] ? `${words['pt-BR']}\n${words.en ?? ''}` : msg}`)
      process.exit(1)
    },
  )
}
