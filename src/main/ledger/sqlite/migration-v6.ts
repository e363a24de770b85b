/**
 * Migration 6 (issue #14): what a payment is for, who it was meant for, and the payee book.
 *
 * - `withdrawals` gets the payment references (invoice, cost centre, category, note) and the expected payee (the
 *   book entry's id, and its name and CPF/CNPJ when the payment was created). Existing rows keep them empty, so
 *   they decode to the same records and hash to the same states (rows.ts, state-hash.ts): the audit chain still
 *   verifies without a new baseline. Their search text is unchanged for the same reason.
 * - `payees` holds the book (main/payees); `payee_keys` makes a Pix key belong to one payee at most and finds a
 *   payee by key. Payee changes are audited in the ledger's one chain (subject `payee:<id>`).
 */
import type { DatabaseSync } from 'node:sqlite'

const schema = `
ALTER TABLE withdrawals ADD COLUMN reference_invoice TEXT;
ALTER TABLE withdrawals ADD COLUMN reference_cost_centre TEXT;
ALTER TABLE withdrawals ADD COLUMN reference_category TEXT;
ALTER TABLE withdrawals ADD COLUMN reference_note TEXT;
ALTER TABLE withdrawals ADD COLUMN payee_id TEXT;
ALTER TABLE withdrawals ADD COLUMN payee_name TEXT;
ALTER TABLE withdrawals ADD COLUMN payee_tax_number TEXT;
CREATE INDEX withdrawals_by_payee ON withdrawals (payee_id, created_at) WHERE payee_id IS NOT NULL;

CREATE TABLE payees (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tax_number TEXT NOT NULL UNIQUE,
  -- The keys in the order the operator gave them, as JSON [{ key, type }]; payee_keys indexes the same keys.
  pix_keys TEXT NOT NULL,
  euid TEXT,
  notes TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- Folded (lower case, no accents) name, document and keys: what the book's search matches.
  search_text TEXT NOT NULL
) STRICT;
CREATE INDEX payees_by_name ON payees (name COLLATE NOCASE, id);

CREATE TABLE payee_keys (
  key TEXT PRIMARY KEY,
  payee_id TEXT NOT NULL REFERENCES payees (id) ON DELETE CASCADE,
  type TEXT NOT NULL
) STRICT;
CREATE INDEX payee_keys_by_payee ON payee_keys (payee_id);
`

export function v6PayeesAndReferences(db: DatabaseSync): void {
  db.exec(schema)
}
