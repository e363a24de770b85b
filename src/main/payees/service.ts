/**
 * The payee book (favorecidos), kept in the ledger file next to the payments made to it. Every change is one
 * ledger transaction together with its audit entry in the ledger's one hash chain (subject `payee:<id>`,
 * carrying the hash of the payee's new state), so who changed a payee, when, and from what to what is part of
 * the same history as the payments.
 *
 * Validation is the shared schema's (shared/payee.ts); on top of it the book refuses a second entry for one
 * CPF/CNPJ and a Pix key that already belongs to another entry (a key has one owner).
 *
 * Payment runs find rows here with `byId` and `search`.
 */
import { randomUUID } from 'node:crypto'
import type { Payee, PayeeMessageCode } from '../../shared/payee'
import { canonicalJson } from '../ledger/model/canonical-json'
import {
  PAYEE_PAGE_MAX,
  PayeeError,
  payeeSubject,
  summary,
  validated,
  type PayeeErrorCode,
} from '../ledger/model/payees'
import type { PayeeBook } from '../ledger/payee-store'
import type { Ledger, LedgerTx } from '../ledger/sqlite'
import { payeeStateHash } from '../ledger/sqlite/payee-states'
import {
  allPayees,
  deletePayeeRow,
  getPayee,
  insertPayeeRow,
  keyOwners,
  payeeByTaxNumber,
  searchPayees,
  updatePayeeRow,
} from '../ledger/sqlite/payee-queries'

export { PAYEE_PAGE_MAX, PayeeError, payeeSubject, summary, validated, type PayeeBook, type PayeeErrorCode }

/** The hash an audit entry carries of the payee state it produced (ledger/sqlite/payee-states.ts checks it). */
export { payeeStateHash }

/** Refuses a document or key another entry already has; names the field so the form can point at it. */
function checkFree(tx: Pick<LedgerTx, 'stmt'>, p: Payee): void {
  const other = payeeByTaxNumber(tx, p.taxNumber)
  if (other && other.id !== p.id) {
    const code: PayeeMessageCode = 'payee_tax_number_taken'
    throw new PayeeError(code, `CPF/CNPJ already in the book (${other.id}).`, { taxNumber: code })
  }
  const owners = keyOwners(
    tx,
    p.pixKeys.map((k) => k.key),
    p.id,
  )
  if (owners.size > 0) {
    const code: PayeeMessageCode = 'payee_key_taken'
    const fields: Record<string, string> = {}
    p.pixKeys.forEach((k, i) => {
      if (owners.has(k.key)) fields[`pixKeys.${i}.key`] = code
    })
    throw new PayeeError(code, 'A Pix key already belongs to another payee.', fields)
  }
}

export function createPayeeBook(ledger: Ledger): PayeeBook {
  const insert = (tx: LedgerTx, input: unknown, operator: string, via: string): Payee => {
    const fields = validated(input)
    const p: Payee = { id: randomUUID(), ...fields, createdAt: tx.at, updatedAt: tx.at }
    checkFree(tx, p)
    insertPayeeRow(tx, p)
    tx.audit({
      operator,
      action: 'payee.created',
      subject: payeeSubject(p.id),
      details: { via, ...summary(p) },
      stateHash: payeeStateHash(p),
    })
    return p
  }

  return {
    byId: (id) => ledger.read((db) => getPayee(db, id)),
    byTaxNumber: (taxNumber) => ledger.read((db) => payeeByTaxNumber(db, taxNumber)),
    search: (text, o = {}) => {
      const limit = Math.min(Math.max(Math.trunc(o.limit ?? 50), 1), PAYEE_PAGE_MAX)
      const offset = Math.max(Math.trunc(o.offset ?? 0), 0)
      return ledger.read((db) => searchPayees(db, text, limit, offset))
    },
    all: () => ledger.read((db) => [...allPayees(db)]),
    create: (input, operator) => ledger.transact((tx) => insert(tx, input, operator, 'form')),
    createMany: (inputs, operator, via) =>
      ledger.transact((tx) =>
        inputs.map((input) => {
          try {
            return { ok: true as const, payee: insert(tx, input, operator, via) }
          } catch (e) {
            // Only refusals decided before any write; anything else rolls the whole import back.
            if (e instanceof PayeeError) return { ok: false as const, error: e }
            throw e
          }
        }),
      ),
    update: (id, input, operator) =>
      ledger.transact((tx) => {
        const before = getPayee(tx, id)
        if (!before) throw new PayeeError('payee_not_found', 'No such payee.')
        const fields = validated(input)
        const next: Payee = {
          id,
          ...fields,
          createdAt: before.createdAt,
          updatedAt: tx.at,
        }
        checkFree(tx, next)
        const same = canonicalJson({ ...before, updatedAt: '' }) === canonicalJson({ ...next, updatedAt: '' })
        if (same) return before
        updatePayeeRow(tx, next)
        tx.audit({
          operator,
          action: 'payee.updated',
          subject: payeeSubject(id),
          details: { before: summary(before), after: summary(next) },
          stateHash: payeeStateHash(next),
        })
        return next
      }),
    remove: (id, operator) =>
      ledger.transact((tx) => {
        const before = getPayee(tx, id)
        if (!before) throw new PayeeError('payee_not_found', 'No such payee.')
        deletePayeeRow(tx, id)
        // Payments keep their own copy of the name and document (expectedPayee): removing the entry loses nothing.
        tx.audit({
          operator,
          action: 'payee.removed',
          subject: payeeSubject(id),
          details: { before: summary(before) },
          stateHash: payeeStateHash(null),
        })
      }),
  }
}
