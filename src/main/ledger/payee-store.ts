/**
 * The payee book behind an async interface, so one desk's book (in its SQLite ledger, main/payees/service.ts) and
 * a team's (on its PostgreSQL ledger, pg/payees.ts) are used the same way by the channels, the CSV import and the
 * withdrawal service. The methods mean what `PayeeBook`'s do, with the same PayeeError codes.
 *
 * One difference, deliberate: the team book refuses an update or removal whose `expectedUpdatedAt` is not the
 * entry's current `updatedAt` (`payee_changed`), so of two desks editing one entry the second is told instead of
 * silently overwriting the first. On one desk the book's writes are synchronous and the expectation is not
 * checked, so that book behaves exactly as before.
 */
import type { Payee } from '../../shared/payee'
import type { PayeeError } from './model/payees'
import type { StoreEngine } from './model/engine'

/** One desk's payee book, synchronous (src/main/payees/service.ts implements it on the SQLite ledger). */
export interface PayeeBook {
  byId(id: string): Payee | undefined
  byTaxNumber(taxNumber: string): Payee | undefined
  /** Name, CPF/CNPJ (masked or not), EUID or Pix key; empty text lists everyone. By name. */
  search(text: string, o?: { limit?: number; offset?: number }): { rows: Payee[]; total: number }
  /** Every payee by name (CSV export). */
  all(): Payee[]
  create(input: unknown, operator: string): Payee
  /**
   * Creates each valid entry in ONE transaction (an import): a refused entry is reported at its index and
   * writes nothing, the others are kept.
   */
  createMany(
    inputs: readonly unknown[],
    operator: string,
    via: string,
  ): Array<{ ok: true; payee: Payee } | { ok: false; error: PayeeError }>
  update(id: string, input: unknown, operator: string): Payee
  remove(id: string, operator: string): void
}

export type PayeeOutcome = { ok: true; payee: Payee } | { ok: false; error: PayeeError }

export interface PayeeWriteGuard {
  /** The `updatedAt` of the entry as the operator saw it; absent: no check (the last write wins). */
  expectedUpdatedAt?: string
}

export interface PayeeStore {
  readonly engine: StoreEngine
  byId(id: string): Promise<Payee | undefined>
  byTaxNumber(taxNumber: string): Promise<Payee | undefined>
  search(text: string, o?: { limit?: number; offset?: number }): Promise<{ rows: Payee[]; total: number }>
  all(): Promise<Payee[]>
  create(input: unknown, operator: string): Promise<Payee>
  /** Each valid entry kept, in one transaction; a refused one reported at its index and written nowhere. */
  createMany(inputs: readonly unknown[], operator: string, via: string): Promise<PayeeOutcome[]>
  update(id: string, input: unknown, operator: string, guard?: PayeeWriteGuard): Promise<Payee>
  remove(id: string, operator: string, guard?: PayeeWriteGuard): Promise<void>
}

/** The desk's own book, unchanged, behind the async interface. */
export function sqlitePayeeStore(book: PayeeBook): PayeeStore {
  const later = <T>(f: () => T): Promise<T> => {
    try {
      return Promise.resolve(f())
    } catch (e) {
      return Promise.reject(e as Error)
    }
  }
  return {
    engine: 'sqlite',
    byId: (id) => later(() => book.byId(id)),
    byTaxNumber: (t) => later(() => book.byTaxNumber(t)),
    search: (text, o) => later(() => book.search(text, o)),
    all: () => later(() => book.all()),
    create: (input, operator) => later(() => book.create(input, operator)),
    createMany: (inputs, operator, via) => later(() => book.createMany(inputs, operator, via)),
    update: (id, input, operator) => later(() => book.update(id, input, operator)),
    remove: (id, operator) => later(() => book.remove(id, operator)),
  }
}
