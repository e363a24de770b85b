/**
 * `team-ledger backup-advice`: the commands to back up and restore this team ledger, filled in with the
 * connection's host, port and database (docs/TEAM-LEDGER.md explains them and what a desk shows after a restore).
 */
import type { Target } from './connect'

export function backupAdvice(t: Target, owner: string): string {
  const conn = `-h ${t.host} -p ${t.port}`
  const ssl = t.host.startsWith('/')
    ? ''
    : `PGSSLMODE=verify-full${t.caSource ? ' PGSSLROOTCERT=<team CA file>' : ''} `
  return [
    `Back up the team ledger ${t.database} (as ${owner} or a superuser; passwords from ~/.pgpass or a prompt):`,
    `  ${ssl}pg_dump ${conn} -U ${owner} -Fc -f ${t.database}-$(date +%Y%m%d-%H%M).dump ${t.database}`,
    `and, once and after each analyst change, the roles (as a superuser; the file holds password hashes: keep it private):`,
    `  ${ssl}pg_dumpall ${conn} -U postgres --roles-only -f roles-$(date +%Y%m%d).sql`,
    `Restore (desks closed; roles first, on a new server only):`,
    `  psql ${conn} -U postgres -f roles-YYYYMMDD.sql`,
    `  createdb ${conn} -U postgres -O ${owner} -T template0 -E UTF8 ${t.database}`,
    `  pg_restore ${conn} -U postgres --exit-on-error -d ${t.database} ${t.database}-….dump`,
    `Then run \`team-ledger status\`. A desk opening the restored ledger finds its audit trail intact (the chain is`,
    `restored whole) but nothing recorded after the backup: check those payments against the service and the`,
    `desks' exports before anyone pays again. docs/TEAM-LEDGER.md, "Backups and restore".`,
  ].join('\n')
}
