/**
 * The team ledger's PostgreSQL schema, as numbered migrations (one file each under migrations/) (append only, like the SQLite ledger's). Everything
 * lives in the schema `ledger`, owned by the role that runs the migrations (the team's owner role); analysts are
 * members of the group role `depix_analysts` and get exactly the privileges granted here.
 *
 * What the database itself guarantees, whatever a desk sends:
 * - identity: every record, observation, approval and audit entry carries `session_user` (the role that logged
 *   in; equal to current_user for an analyst's own connection) set by triggers or the audit function, never a
 *   value from the client;
 * - the audit log is written only by `append_audit` (SECURITY DEFINER), which chains the hash under a row lock
 *   on `audit_head` with the rule of src/main/ledger/model/audit-hash.ts; nobody, owner included, may UPDATE or DELETE
 *   an entry;
 * - four-eyes: an approval is decided by a role other than the one that requested it (trigger + CHECK), and a
 *   payment above the team's threshold cannot be inserted without a matching approved request;
 * - records are never deleted (no DELETE privilege, and a trigger);
 * - since migration 11, payments, top-ups and observations are written only through the database's functions,
 *   which refuse moves outside the table and compute the audited state hash themselves (migrations/0011-state-machine.ts).
 */
import { baseMigrationSql } from './migrations/0001-base'
import { payeesReceiptsMigration } from './migrations/0002-payees-receipts'
import { runsMigrationSql } from './migrations/0003-runs'
import { depositsMigrationSql } from './migrations/0004-deposits'
import { referencesMigrationSql } from './migrations/0005-references'
import { rateTokenMigrationSql } from './migrations/0006-rate-token'
import { deskImportMigrationSql } from './migrations/0007-desk-import'
import { payeeNotifyMigrationSql } from './migrations/0008-payee-notify'
import { hardeningMigrationSql } from './migrations/0009-hardening'
import { runKeyMigrationSql } from './migrations/0010-run-key'
import { stateMachineMigrationSql } from './migrations/0011-state-machine'
import { leadershipMigrationSql } from './migrations/0012-leadership'
import { runLeaseMigrationSql } from './migrations/0013-run-lease'
import { settingsAuditMigrationSql } from './migrations/0014-settings-audit'
import { topUpApprovalsMigrationSql } from './migrations/0015-topup-approvals'
import { runsFunctionsMigrationSql } from './migrations/0016-runs-functions'
import { fundingAttemptsMigrationSql } from './migrations/0017-funding-attempts'
import { teamWalletMigrationSql } from './migrations/0018-team-wallet'

export const SCHEMA = 'ledger'
export const ANALYST_GROUP = 'depix_analysts'

/** ISO 8601 UTC with milliseconds, as `Date#toISOString` writes it: one format, so text order is time order. */
export const ISO_NOW_SQL = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export interface PgMigration {
  version: number
  name: string
  sql: string
}

/**
 * In version order. A migration is one file, migrations/NNNN-<topic>.ts, exporting a function of the names above
 * that returns its SQL; once shipped it is never edited (existing databases store its version number and the
 * hashes its SQL computes). A new one takes the next number and is appended here.
 */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'team ledger base', sql: baseMigrationSql({ SCHEMA, ANALYST_GROUP, ISO_NOW_SQL }) },
  {
    version: 2,
    name: 'team payee book and receipts',
    sql: payeesReceiptsMigration({ schema: SCHEMA, group: ANALYST_GROUP, isoNow: ISO_NOW_SQL }),
  },
  { version: 3, name: 'payment runs', sql: runsMigrationSql({ SCHEMA, ANALYST_GROUP, ISO_NOW_SQL }) },
  { version: 4, name: 'deposits', sql: depositsMigrationSql(SCHEMA, ANALYST_GROUP) },
  { version: 5, name: 'payment references and payee', sql: referencesMigrationSql(ANALYST_GROUP) },
  { version: 6, name: 'rate token: clock read under the lock', sql: rateTokenMigrationSql(SCHEMA) },
  {
    version: 7,
    name: 'desk import of payees and runs; threshold pushed',
    sql: deskImportMigrationSql({ SCHEMA, ANALYST_GROUP, ISO_NOW_SQL }),
  },
  { version: 8, name: 'payee book changes announced', sql: payeeNotifyMigrationSql(SCHEMA) },
  { version: 9, name: 'hardening after an adversarial review', sql: hardeningMigrationSql({ SCHEMA }) },
  {
    version: 10,
    name: 'a run row pays its own Pix key',
    sql: runKeyMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 11,
    name: 'the database is the state machine for payments and top-ups',
    sql: stateMachineMigrationSql({ SCHEMA, ANALYST_GROUP, ISO_NOW_SQL }),
  },
  {
    version: 12,
    name: 'tracker lease with heartbeats, fenced tracker writes, bounded rate penalties',
    sql: leadershipMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 13,
    name: 'runs that cannot get stuck: partially paid, retry, wave lease',
    sql: runLeaseMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 14,
    name: 'settings and analyst changes audited',
    sql: settingsAuditMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 15,
    name: 'top-ups have four-eyes',
    sql: topUpApprovalsMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 16,
    name: 'runs, run rows, waves and payees written only through functions',
    sql: runsFunctionsMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 17,
    name: 'a payment is funded by at most one transaction on the team',
    sql: fundingAttemptsMigrationSql({ SCHEMA, ANALYST_GROUP }),
  },
  {
    version: 18,
    name: "the team's treasury wallet (watch-only descriptor), owner-written",
    sql: teamWalletMigrationSql({ SCHEMA, ANALYST_GROUP, ISO_NOW_SQL }),
  },
]
// The last entry's version, not the count: migrations land from parallel branches and are renumbered at merge.
export const PG_LATEST_VERSION = PG_MIGRATIONS.at(-1)?.version ?? 0
