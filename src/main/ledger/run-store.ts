/**
 * Payment runs behind an async interface, so a desk's embedded SQLite ledger and a team's PostgreSQL server are
 * used the same way by the run service (src/main/runs). Each method has the semantics of the `LedgerRuns` method
 * of the same name (src/main/ledger/sqlite/runs.ts): one transaction with its audit entries, the same transitions, the
 * same LedgerError codes. The SQLite adapter wraps that code unchanged.
 *
 * On PostgreSQL (pg/run-store.ts) the database also enforces four-eyes for a run (`fourEyes`), keeps identities
 * (session_user) and recovers only the runs whose wave this role was creating.
 */
import type {
  ImportedRow,
  RowDecision,
  RunRecord,
  RunRowRecord,
  RunRowState,
  RunState,
  RunWave,
} from '../../shared/run'
import type { Ledger } from './sqlite'
import type { NewRun, RowChange } from './sqlite/runs'
import type { StoreEngine } from './model/engine'

export type { NewRun, RowChange }
export type { ImportedRow, RowDecision }

/** The pending or granted four-eyes approval of one run (team ledger only). */
export interface RunApproval {
  /** Whether the team's threshold applies to this run now (its largest row or its total is above it). */
  needed: boolean
  /** The role that asked for the approval, and the rows hash it asked for; null when nobody asked yet. */
  requestedBy: string | null
  requestedAt: string | null
  requestedHash: string | null
  /** The role whose cancel of the waiting run rejected it, and the reason it gave (from the audit trail). */
  rejectedBy: string | null
  rejectedReason: string | null
  /**
   * The refund addresses of the rows to pay that are not among the team's registered treasury addresses
   * (`treasury_addresses`, as a single payment's approval checks): the approver sees them marked (issue #26).
   */
  unregisteredRefunds: string[]
}

export interface RunFourEyes {
  approvalOf(runId: string): Promise<RunApproval>
  /** Freezes the rows and asks another role to approve them (audited as run.approval_requested). */
  requestApproval(
    runId: string,
    hash: string,
    operator: string,
    details: Record<string, unknown>,
  ): Promise<RunRecord>
}

/** The lease on creating a run's wave, as the server's clock sees it (team ledger only). */
export interface RunLeaseState {
  holder: string | null
  expiresAt: string | null
  /** Someone holds it and it has not expired. */
  live: boolean
  /** This desk's role holds it, live. */
  mine: boolean
}

/**
 * Who may create a run's wave (team ledger, migration 13): a row goes into flight only under a live lease held by
 * this role; an expired one may be claimed by any role (the takeover of a run whose desk is gone).
 */
export interface RunLeases {
  of(runId: string): Promise<RunLeaseState>
  /** Claims or renews for `ms` from the server's now; `mine` says whether it is held here afterwards. */
  claim(runId: string, ms: number): Promise<RunLeaseState>
  release(runId: string): Promise<void>
}

export interface RunStore {
  readonly engine: StoreEngine
  /** The identity the engine records (the database role on PostgreSQL). */
  readonly identity: string
  /** Four-eyes for runs; null on the embedded ledger (one desk, no second analyst). */
  readonly fourEyes: RunFourEyes | null
  /** Wave leases; null on the embedded ledger (one desk holds the ledger's lock). */
  readonly leases: RunLeases | null
  create(input: NewRun, operator: string): Promise<RunRecord>
  get(runId: string): Promise<RunRecord | undefined>
  /** Newest first; `profile` narrows to one profile (a desk's ledger is shared by its profiles). */
  list(profile?: string): Promise<RunRecord[]>
  rows(runId: string): Promise<RunRowRecord[]>
  waves(runId: string): Promise<RunWave[]>
  /** Runs left `creating` that this desk must recover after a restart (on a team: only those it was creating). */
  interrupted(): Promise<RunRecord[]>
  setState(
    runId: string,
    from: readonly RunState[],
    to: RunState,
    operator: string,
    action: string,
    details?: Record<string, unknown>,
    approval?: { hash: string | null },
  ): Promise<RunRecord>
  changeRow(
    runId: string,
    idx: number,
    from: readonly RunRowState[],
    change: RowChange,
    operator: string,
    action: string,
    details?: Record<string, unknown>,
  ): Promise<RunRowRecord>
  startWave(runId: string, wave: number, idxs: readonly number[], operator: string): Promise<RunRecord>
  markWaveFunded(runId: string, wave: number, txId: string | null, operator: string): Promise<RunWave>
}

/** Runs `fn` and turns a synchronous throw into a rejection, like an async engine. */
function later<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn())
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)))
  }
}

/** The embedded ledger's runs (migrations v6–v9), unchanged behind the async interface. */
export function sqliteRunStore(ledger: Ledger, o: { identity?: string } = {}): RunStore {
  const runs = (): Ledger['runs'] => ledger.runs
  return {
    engine: 'sqlite',
    identity: o.identity ?? 'local',
    fourEyes: null,
    leases: null,
    create: (input, operator) => later(() => runs().create(input, operator)),
    get: (runId) => later(() => runs().get(runId)),
    list: (profile) => later(() => runs().list(profile)),
    rows: (runId) => later(() => runs().rows(runId)),
    waves: (runId) => later(() => runs().waves(runId)),
    interrupted: () =>
      later(() =>
        runs()
          .list()
          .filter((r) => r.state === 'creating'),
      ),
    setState: (runId, from, to, operator, action, details, approval) =>
      later(() => runs().setState(runId, from, to, operator, action, details, approval)),
    changeRow: (runId, idx, from, change, operator, action, details) =>
      later(() => runs().changeRow(runId, idx, from, change, operator, action, details)),
    startWave: (runId, wave, idxs, operator) => later(() => runs().startWave(runId, wave, idxs, operator)),
    markWaveFunded: (runId, wave, txId, operator) =>
      later(() => runs().markWaveFunded(runId, wave, txId, operator)),
  }
}
