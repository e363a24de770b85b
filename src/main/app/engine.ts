/**
 * Which engine keeps the active profile's records (issue #29): this computer's SQLite ledger, or the team's
 * PostgreSQL ledger (issue #16), connected or not. The one place the app layer tells the two apart: handlers ask
 * `engineOf(rt)` and what hangs off it, instead of testing `rt.team` and `team.pg` each their own way.
 */
import type { RecordFilter } from '../../shared/withdrawal-record'
import type { PgLedgerStore } from '../ledger/engines'
import { sqlitePayeeStore, type PayeeStore } from '../ledger/payee-store'
import type { PayeeBook } from '../payees'
import type { ReceiptService } from '../receipts'
import type { TeamBooks } from './team-books'
import type { TeamSide } from './team-runtime'

export interface SqliteEngine {
  readonly kind: 'sqlite'
}

export interface PostgresEngine {
  readonly kind: 'postgres'
  readonly team: TeamSide
  /** The connected store, or null while the server is out of reach (work that just waits for it). */
  readonly pg: PgLedgerStore | null
  /** The connected store; the team's refusal (its reason, both languages) while not connected. */
  connected(): PgLedgerStore
  /** The team's payee book and receipts; the same refusal while not connected. */
  books(): TeamBooks
}

export type Engine = SqliteEngine | PostgresEngine

const SQLITE: SqliteEngine = { kind: 'sqlite' }

/** What a runtime holds to say where its records are (runtime.ts ProfileRuntime; the runtime itself while it opens). */
export interface EngineSource {
  readonly team: TeamSide | null
  readonly teamBooks: TeamBooks | null
}

export function engineOf(rt: EngineSource): Engine {
  const team = rt.team
  if (!team) return SQLITE
  const books = rt.teamBooks
  return {
    kind: 'postgres',
    team,
    pg: team.pg,
    connected: () => {
      if (!team.pg) throw team.refusal()
      return team.pg
    },
    books: () => {
      if (!books) throw team.refusal()
      return books
    },
  }
}

/**
 * The live lists show the active profile's records unless the filter names one; on a team ledger every desk's
 * (each desk's profile has its own id, and they are all the team's one account).
 */
export function scopedFilter<F extends Pick<RecordFilter, 'profile'>>(
  e: Engine,
  profileId: string,
  filter: F,
): F {
  return e.kind === 'postgres' ? filter : { ...filter, profile: filter.profile ?? profileId }
}

const localStores = new WeakMap<PayeeBook, PayeeStore>()

/** The active profile's payee book: the team's, or this computer's (`local`). */
export function payeeStoreOf(e: Engine, local: PayeeBook): PayeeStore {
  if (e.kind === 'postgres') return e.books().payees
  let s = localStores.get(local)
  if (!s) {
    s = sqlitePayeeStore(local)
    localStores.set(local, s)
  }
  return s
}

/** The active profile's receipts: the team's, or this computer's (`local`); one service over either store. */
export function receiptsOf(e: Engine, local: ReceiptService): ReceiptService {
  return e.kind === 'postgres' ? e.books().receipts : local
}
