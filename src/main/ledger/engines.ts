/**
 * The ledger's engines behind the store interfaces (ports.ts): the embedded SQLite ledger of one desk (sqlite/, the
 * default, wrapped by sqlite/store.ts) and a team's PostgreSQL server (pg/), plus the team coordination around the
 * latter (team/: leadership, offline stand-in, connection, desk import; the shared rate budget's client side is
 * src/main/api/team-rate-budget.ts). The withdrawal service and its tracker work on a `LedgerStore`; a team
 * profile's runtime (src/main/app/team-runtime.ts) opens the PostgreSQL one, or the offline stand-in
 * (team/offline.ts) when the server is out of reach. Exports and the review's ledger check read either engine
 * through the export's view (export-view.ts; sqlite/export-view.ts, pg/export-view.ts); the payee book has its own
 * async store (payee-store.ts, pg/payees.ts), a team's receipts their rows (pg/receipts.ts), payment runs their
 * store (run-store.ts, pg/run-store.ts) and top-ups theirs (deposit-store.ts: the SQLite ledger's deposits, or the
 * team ledger's `PgLedgerStore.deposits`).
 */
export { sqliteStore } from './sqlite/store'
export { sqliteExportLedger } from './sqlite/export-view'
export { openPgLedgerView, pgExportLedger, type PgLedgerView } from './pg/export-view'
export type { AuditText, ExportAuditInput, ExportLedger, ExportView, ReceiptCandidate } from './export-view'
export { sqliteDepositStore, type DepositStore } from './deposit-store'
export { openPgStore, pgPool, type PgLedgerStore, type PgStoreOptions } from './pg/store'
export {
  migrate as migratePg,
  checkSchema as checkPgSchema,
  schemaVersion as pgSchemaVersion,
} from './pg/migrate'
export { PG_LATEST_VERSION, ANALYST_GROUP, SCHEMA as PG_SCHEMA } from './pg/schema'
export type { Approval, ApprovalsApi, NewTopUpApproval } from './pg/approvals'
export { TeamLedgerError, type TeamLedgerErrorCode } from './team-errors'
export type { DuplicateGuard, GuardedCreate, LedgerStore, StoreAuditInput, StoreEngine } from './ports'
export { startLeadership, type ApprovalEvent, type RecordChange, type TrackerLeadership } from './team/leader'
export { importDeskLedger, type ImportResult } from './team/import'
export { teamConnection } from './team/connection'
export { trackWhileLeading } from './team/leader-tracker'
export { notConnected, offlineStore, openFailureVerdict } from './team/offline'
