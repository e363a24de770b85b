/**
 * The payee book's rows (tables of migration 6, ledger/sqlite/migration-v6.ts): mapping, reads and writes on the
 * statements the ledger lends (`Ledger.read` / `Ledger.transact`). No validation and no audit here: the payee
 * book (src/main/payees/service.ts) decides what may be written and records it.
 */
import type { Payee } from '../../../shared/payee'
import type { Db } from './db'
import { rowToPayee } from './payee-states'
import { payeeSearchText } from '../model/payees'
import { digitsVariant, foldText } from '../model/search-text'

type Stmts = Pick<Db, 'stmt'>

export { rowToPayee, payeeSearchText }

export function getPayee(db: Stmts, id: string): Payee | undefined {
  const row = db.stmt('SELECT * FROM payees WHERE id = ?').get(id)
  return row ? rowToPayee(row) : undefined
}

export function payeeByTaxNumber(db: Stmts, taxNumber: string): Payee | undefined {
  const row = db.stmt('SELECT * FROM payees WHERE tax_number = ?').get(taxNumber)
  return row ? rowToPayee(row) : undefined
}

/** The payee that owns each of `keys` (canonical), other than `exceptId`. */
export function keyOwners(db: Stmts, keys: readonly string[], exceptId: string | null): Map<string, string> {
  const out = new Map<string, string>()
  for (const key of keys) {
    const row = db.stmt('SELECT payee_id FROM payee_keys WHERE key = ?').get(key)
    if (row && String(row.payee_id) !== exceptId) out.set(key, String(row.payee_id))
  }
  return out
}

const LIKE_ESCAPE = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Payees whose name, CPF/CNPJ, EUID or a key contains `text` (folded; a masked document or phone also by its
 * digits), by name. The book is small (hundreds to a few thousand entries): a LIKE over the folded column is
 * enough, and also matches one or two characters.
 */
export function searchPayees(
  db: Stmts,
  text: string,
  limit: number,
  offset: number,
): { rows: Payee[]; total: number } {
  const folded = foldText(text)
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  const digits = digitsVariant(folded)
  const where =
    folded === ''
      ? ''
      : digits
        ? "WHERE search_text LIKE ? ESCAPE '\\' OR search_text LIKE ? ESCAPE '\\'"
        : "WHERE search_text LIKE ? ESCAPE '\\'"
  const params = folded === '' ? [] : [`%${LIKE_ESCAPE(folded)}%`, ...(digits ? [`%${digits}%`] : [])]
  const total = Number(db.stmt(`SELECT count(*) AS n FROM payees ${where}`).get(...params)?.n ?? 0)
  const rows = db
    .stmt(`SELECT * FROM payees ${where} ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`)
    .all(...params, limit, offset)
    .map(rowToPayee)
  return { rows, total }
}

/** Every payee by name, one at a time (CSV export). */
export function* allPayees(db: Stmts): Generator<Payee, void, undefined> {
  for (const row of db.stmt('SELECT * FROM payees ORDER BY name COLLATE NOCASE, id').all())
    yield rowToPayee(row)
}

function params(p: Payee): Record<string, string | null> {
  return {
    id: p.id,
    name: p.name,
    tax_number: p.taxNumber,
    pix_keys: JSON.stringify(p.pixKeys.map((k) => ({ key: k.key, type: k.type }))),
    euid: p.euid ?? null,
    notes: p.notes ?? null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    search_text: payeeSearchText(p),
  }
}

function writeKeys(db: Stmts, p: Payee): void {
  db.stmt('DELETE FROM payee_keys WHERE payee_id = ?').run(p.id)
  for (const k of p.pixKeys) {
    db.stmt('INSERT INTO payee_keys (key, payee_id, type) VALUES (?, ?, ?)').run(k.key, p.id, k.type)
  }
}

export function insertPayeeRow(db: Stmts, p: Payee): void {
  db.stmt(
    `INSERT INTO payees (id, name, tax_number, pix_keys, euid, notes, created_at, updated_at, search_text)
     VALUES (:id, :name, :tax_number, :pix_keys, :euid, :notes, :created_at, :updated_at, :search_text)`,
  ).run(params(p))
  writeKeys(db, p)
}

export function updatePayeeRow(db: Stmts, p: Payee): void {
  const { created_at: _unchanged, ...rest } = params(p)
  const res = db
    .stmt(
      `UPDATE payees SET name = :name, tax_number = :tax_number, pix_keys = :pix_keys, euid = :euid,
       notes = :notes, updated_at = :updated_at, search_text = :search_text WHERE id = :id`,
    )
    .run(rest)
  if (res.changes !== 1) throw new Error(`payees: update of ${p.id} touched ${res.changes} rows`)
  writeKeys(db, p)
}

export function deletePayeeRow(db: Stmts, id: string): void {
  // payee_keys go with it (ON DELETE CASCADE; foreign keys are on in db.ts).
  db.stmt('DELETE FROM payees WHERE id = ?').run(id)
}
