/**
 * The team's payee book on PostgreSQL (tables of migration-payees-receipts.ts). Validation, the document and key
 * checks and the audit entries (action, subject `payee:<id>`, details, state hash) are those of the desk's book
 * (main/payees/service.ts), so both books read the same in the audit trail; who and when come from the database.
 *
 * Every write takes one advisory lock for the book: writes are rare, and with them in one line the "document or
 * key already taken" checks see every entry committed before (the unique indexes stay as the backstop, mapped to
 * the same refusals by constraint name). An update or removal compares the entry's `updatedAt` with the one the
 * desk read (`expectedUpdatedAt`) under the row lock: a concurrent edit is refused as `payee_changed`, never lost.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { canonicalJson } from '../model/canonical-json'
import { LedgerError } from '../model/errors'
import { payeeStateHash } from '../model/payees'
import { digitsVariant, foldText } from '../model/search-text'
import { PAYEE_PAGE_MAX, PayeeError, payeeSearchText, summary, validated } from '../model/payees'
import { payeeKeySchema, payeeMessages, type Payee, type PayeeMessageCode } from '../../../shared/payee'
import type { PayeeOutcome, PayeeStore, PayeeWriteGuard } from '../payee-store'
import { auditDetails, type Queryable } from './audit'
import { read, withTx, type Tx } from './tx'

export const BOOK_LOCK = 727_016_004

const payeeRowSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  tax_number: z.string(),
  pix_keys: z.array(payeeKeySchema),
  euid: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  removed_at: z.string().nullable(),
})

/** A row read back; one that does not parse is refused, never shown as a payee with other keys. */
export function pgRowToPayee(row: unknown): Payee {
  const r = payeeRowSchema.safeParse(row)
  if (!r.success) throw new LedgerError('record_tampered', 'a payee row of the team book does not parse')
  const v = r.data
  return {
    id: v.id,
    name: v.name,
    taxNumber: v.tax_number,
    pixKeys: v.pix_keys.map((k) => ({ key: k.key, type: k.type })),
    ...(v.euid !== null ? { euid: v.euid } : {}),
    ...(v.notes !== null ? { notes: v.notes } : {}),
    createdAt: v.created_at,
    updatedAt: v.updated_at,
  }
}

const COLUMNS = 'id, name, tax_number, pix_keys, euid, notes, created_at, updated_at, removed_at'
const LIKE_ESCAPE = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function changed(): PayeeError {
  const code: PayeeMessageCode = 'payee_changed'
  return new PayeeError(
    code,
    'The payee was changed on another desk after it was read; nothing was written.',
    {},
    payeeMessages[code],
  )
}

const notFound = (): PayeeError => new PayeeError('payee_not_found', 'No such payee.')

/** The database's unique indexes, as the book's own refusals (another desk won a race the checks could not see). */
function uniqueRefusal(e: unknown, p: Pick<Payee, 'pixKeys'>): PayeeError | null {
  const pe = e as { code?: unknown; constraint?: unknown }
  if (pe.code !== '23505') return null
  if (pe.constraint === 'payees_live_tax_number') {
    return new PayeeError('payee_tax_number_taken', 'CPF/CNPJ already in the book.', {
      taxNumber: 'payee_tax_number_taken',
    })
  }
  if (pe.constraint === 'payee_keys_pkey') {
    const fields: Record<string, string> = {}
    p.pixKeys.forEach((_, i) => (fields[`pixKeys.${i}.key`] = 'payee_key_taken'))
    return new PayeeError('payee_key_taken', 'A Pix key already belongs to another payee.', fields)
  }
  return null
}

async function checkFree(
  c: Queryable,
  p: Pick<Payee, 'taxNumber' | 'pixKeys'>,
  id: string | null,
): Promise<void> {
  const other = await c.query('SELECT id FROM payees WHERE tax_number = $1 AND removed_at IS NULL', [
    p.taxNumber,
  ])
  const otherId = other.rows[0]?.id
  if (typeof otherId === 'string' && otherId !== id) {
    throw new PayeeError('payee_tax_number_taken', `CPF/CNPJ already in the book (${otherId}).`, {
      taxNumber: 'payee_tax_number_taken',
    })
  }
  const keys = p.pixKeys.map((k) => k.key)
  const owners = await c.query('SELECT key FROM payee_keys WHERE key = ANY($1::text[]) AND payee_id <> $2', [
    keys,
    id ?? '',
  ])
  if (owners.rows.length > 0) {
    const taken = new Set(owners.rows.map((r) => String(r.key)))
    const fields: Record<string, string> = {}
    p.pixKeys.forEach((k, i) => {
      if (taken.has(k.key)) fields[`pixKeys.${i}.key`] = 'payee_key_taken'
    })
    throw new PayeeError('payee_key_taken', 'A Pix key already belongs to another payee.', fields)
  }
}

type Fields = ReturnType<typeof validated>

/** An entry's columns as `payee_write` (migration 16) takes them. */
function payload(f: Fields, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name: f.name,
    taxNumber: f.taxNumber,
    pixKeys: f.pixKeys.map((k) => ({ key: k.key, type: k.type })),
    euid: f.euid ?? null,
    notes: f.notes ?? null,
    searchText: payeeSearchText(f),
    ...extra,
  })
}

/**
 * One write of the book through `payee_write`: the database locks the entry, checks it is the version read, writes
 * it and audits it with the state hash it computes. A unique index's refusal is the book's own; DPX19 is a change on
 * another desk since the read.
 */
export async function payeeWrite(
  t: Tx,
  a: { id: string | null; fields: string; expected: string | null; action: string; details: string },
  f: Pick<Payee, 'pixKeys'>,
): Promise<Payee> {
  try {
    const r = await t.c.query(`SELECT ${COLUMNS} FROM payee_write($1, $2, $3, $4, $5)`, [
      a.id,
      a.fields,
      a.expected,
      a.action,
      a.details,
    ])
    return pgRowToPayee(r.rows[0])
  } catch (e) {
    if ((e as { code?: unknown }).code === 'DPX19') throw changed()
    throw uniqueRefusal(e, f) ?? e
  }
}

async function insert(t: Tx, input: unknown, operator: string, via: string): Promise<Payee> {
  const fields = validated(input)
  await checkFree(t.c, fields, null)
  return payeeWrite(
    t,
    {
      id: null,
      fields: payload(fields, { id: randomUUID() }),
      expected: null,
      action: 'payee.created',
      details: auditDetails(t.identity, { operator, details: { via, ...summary(fields as Payee) } }),
    },
    fields,
  )
}

/**
 * The live entry, checked against what the desk read (`payee_write` checks it again under the row lock: analysts
 * cannot lock a row they may not update).
 */
async function lockedBefore(t: Tx, id: string, guard: PayeeWriteGuard | undefined): Promise<Payee> {
  const r = await t.c.query(`SELECT ${COLUMNS} FROM payees WHERE id = $1 AND removed_at IS NULL`, [id])
  if (!r.rows[0]) throw notFound()
  const before = pgRowToPayee(r.rows[0])
  if (guard?.expectedUpdatedAt !== undefined && guard.expectedUpdatedAt !== before.updatedAt) throw changed()
  return before
}

export function pgPayeeStore(pool: pg.Pool): PayeeStore {
  const write = <T>(fn: (t: Tx) => Promise<T>): Promise<T> =>
    withTx(pool, async (t) => {
      await t.c.query('SELECT pg_advisory_xact_lock($1)', [BOOK_LOCK])
      return fn(t)
    })
  const needOperator = (operator: string): void => {
    if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  }
  const one = async (sql: string, param: string): Promise<Payee | undefined> =>
    read(pool, async (c) => {
      const r = await c.query(`SELECT ${COLUMNS} FROM payees WHERE ${sql} AND removed_at IS NULL`, [param])
      return r.rows[0] ? pgRowToPayee(r.rows[0]) : undefined
    })

  return {
    engine: 'postgres',
    byId: (id) => one('id = $1', id),
    byTaxNumber: (taxNumber) => one('tax_number = $1', taxNumber),
    search: (text, o = {}) => {
      const limit = Math.min(Math.max(Math.trunc(o.limit ?? 50), 1), PAYEE_PAGE_MAX)
      const offset = Math.max(Math.trunc(o.offset ?? 0), 0)
      const folded = foldText(text)
        .replace(/[\p{Cc}]+/gu, ' ')
        .trim()
      const digits = digitsVariant(folded)
      const params: unknown[] = []
      let where = 'removed_at IS NULL'
      if (folded !== '') {
        params.push(`%${LIKE_ESCAPE(folded)}%`)
        where += digits
          ? ` AND (search_text LIKE $1 ESCAPE '\\' OR search_text LIKE $2 ESCAPE '\\')`
          : ` AND search_text LIKE $1 ESCAPE '\\'`
        if (digits) params.push(`%${digits}%`)
      }
      return read(pool, async (c) => {
        const total = await c.query(`SELECT count(*) AS n FROM payees WHERE ${where}`, params)
        const rows = await c.query(
          `SELECT ${COLUMNS} FROM payees WHERE ${where} ORDER BY lower(name), id
           LIMIT ${limit} OFFSET ${offset}`,
          params,
        )
        return { rows: rows.rows.map(pgRowToPayee), total: Number(total.rows[0]?.n ?? 0) }
      })
    },
    all: () =>
      read(pool, async (c) =>
        (
          await c.query(`SELECT ${COLUMNS} FROM payees WHERE removed_at IS NULL ORDER BY lower(name), id`)
        ).rows.map(pgRowToPayee),
      ),
    create: async (input, operator) => {
      needOperator(operator)
      return write((t) => insert(t, input, operator, 'form'))
    },
    createMany: async (inputs, operator, via) => {
      needOperator(operator)
      return write(async (t) => {
        const out: PayeeOutcome[] = []
        for (const input of inputs) {
          // One savepoint per entry: a refusal undoes that entry only, anything else rolls the import back.
          await t.c.query('SAVEPOINT payee_row')
          try {
            out.push({ ok: true, payee: await insert(t, input, operator, via) })
            await t.c.query('RELEASE SAVEPOINT payee_row')
          } catch (e) {
            if (!(e instanceof PayeeError)) throw e
            await t.c.query('ROLLBACK TO SAVEPOINT payee_row')
            out.push({ ok: false, error: e })
          }
        }
        return out
      })
    },
    update: async (id, input, operator, guard) => {
      needOperator(operator)
      return write(async (t) => {
        const before = await lockedBefore(t, id, guard)
        const fields = validated(input)
        await checkFree(t.c, fields, id)
        const draft: Payee = { id, ...fields, createdAt: before.createdAt, updatedAt: '' }
        if (canonicalJson({ ...before, updatedAt: '' }) === canonicalJson(draft)) return before
        return payeeWrite(
          t,
          {
            id,
            fields: payload(fields),
            expected: before.updatedAt,
            action: 'payee.updated',
            details: auditDetails(t.identity, {
              operator,
              details: { before: summary(before), after: summary(fields as Payee) },
            }),
          },
          fields,
        )
      })
    },
    remove: async (id, operator, guard) => {
      needOperator(operator)
      await write(async (t) => {
        const before = await lockedBefore(t, id, guard)
        // Kept as removed, not deleted: analysts have no DELETE, and payments keep their own copy anyway.
        await payeeWrite(
          t,
          {
            id,
            fields: '{}',
            expected: before.updatedAt,
            action: 'payee.removed',
            details: auditDetails(t.identity, { operator, details: { before: summary(before) } }),
          },
          before,
        )
      })
    },
  }
}

/**
 * Every entry of the team book against its latest audit entry's state hash (a live entry must hash to it, a
 * removed one must have `removed` as its last state): an entry changed outside the app is found. Null when intact.
 */
export async function verifyPgPayees(c: Queryable): Promise<{ id: string; reason: string } | null> {
  const r = await c.query(
    `SELECT ${COLUMNS}, (SELECT a.state_hash FROM audit_log a WHERE a.subject = 'payee:' || p.id
       AND a.state_hash IS NOT NULL ORDER BY a.seq DESC LIMIT 1) AS last_state
     FROM payees p ORDER BY id`,
  )
  for (const row of r.rows) {
    const id = String(row.id)
    let actual: string
    try {
      actual = payeeStateHash(row.removed_at === null ? pgRowToPayee(row) : null)
    } catch {
      return { id, reason: 'row does not parse' }
    }
    if (row.last_state !== actual) return { id, reason: 'differs from its latest audit entry' }
  }
  return null
}
