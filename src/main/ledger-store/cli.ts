/**
 * The database owner's tool (run once after setup.sql, and after each app upgrade that brings a migration):
 *
 *   PGHOST=db.example.com PGUSER=depix_owner PGDATABASE=depix_team PGPASSWORD=… PGSSLMODE=verify-full \
 *     npx tsx src/main/ledger-store/cli.ts migrate
 *
 * `status` prints the schema version without changing anything. Connection settings come from the standard
 * libpq environment variables (node-postgres reads them); the password never appears on the command line.
 */
import pg from 'pg'
import { migrate, schemaVersion } from './pg/migrate'
import { PG_LATEST_VERSION } from './pg/schema'

export async function main(argv: readonly string[], config: pg.ClientConfig = {}): Promise<string> {
  const command = argv[0]
  if (command !== 'migrate' && command !== 'status') return 'usage: cli.ts migrate | status'
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
      console.error(`team ledger: ${msg}`)
      process.exit(1)
    },
  )
}
