import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileSchemaPrecheck } from '../../../src/main/records/schema-precheck'
import { DEPOSIT_KIND, WITHDRAWAL_KIND } from '../../../src/main/records/kinds'
import { makeRecords, nastyRecords } from './fixtures'

const exportedRecordSchema = WITHDRAWAL_KIND.recordSchema

const check = compileSchemaPrecheck(exportedRecordSchema)
const records = [...makeRecords(200, { seed: 3 }), ...nastyRecords()].map(
  (r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>,
)

/** Any JSON value, including the shapes the schema cares about. */
const jsonValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 2 ** 53, -(2 ** 53), 1e300, '', 'x', '__proto__', []),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    ...['submitting', 'created', 'rejected', 'outcome_unknown', 'not_created', 'deposit', 'payout'],
  ),
  fc.jsonValue({ maxDepth: 2 }),
)

const KEYS = Object.keys(records[0] ?? {})
const NESTED = ['request', 'createResponse', 'lastRemote', 'refund', 'error', 'flags']
const NESTED_KEYS = [
  'kind',
  'status',
  'messageCode',
  'denialCode',
  'requestId',
  'message',
  'txId',
  '__proto__',
  'x',
]

/** One edit of a record (JSON-parsed, so `__proto__` is an own member as in a file). */
const edit = fc.oneof(
  fc.record({
    op: fc.constant('set'),
    key: fc.constantFrom(...KEYS, '__proto__', 'extra'),
    value: jsonValue,
  }),
  fc.record({ op: fc.constant('delete'), key: fc.constantFrom(...KEYS) }),
  fc.record({
    op: fc.constant('nested'),
    key: fc.constantFrom(...NESTED),
    inner: fc.constantFrom(...NESTED_KEYS, '0'),
    value: fc.option(jsonValue, { nil: undefined }),
  }),
)

function apply(base: Record<string, unknown>, edits: Array<Record<string, unknown>>): unknown {
  // Through JSON text, as the verifier reads it.
  let text = JSON.stringify(base)
  for (const e of edits) {
    const o = JSON.parse(text) as Record<string, unknown>
    const key = e.key as string
    if (e.op === 'set') {
      // Appended as text: "__proto__" becomes an own member, as in a file.
      const body = JSON.stringify(o).slice(0, -1)
      text = `${body}${body.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(e.value)}}`
      continue
    }
    if (e.op === 'delete') delete o[key]
    else {
      const inner = o[key]
      if (inner !== null && typeof inner === 'object') {
        if (e.value === undefined) delete (inner as Record<string, unknown>)[e.inner as string]
        else (inner as Record<string, unknown>)[e.inner as string] = e.value
      } else o[key] = e.value === undefined ? {} : { [e.inner as string]: e.value }
    }
    text = JSON.stringify(o)
  }
  return JSON.parse(text)
}

describe('fast check of exported records', () => {
  it('is compiled for the records schema, and accepts every exported record', () => {
    expect(check).not.toBeNull()
    expect(compileSchemaPrecheck(DEPOSIT_KIND.recordSchema)).not.toBeNull()
    for (const r of records) {
      expect(exportedRecordSchema.safeParse(r).success).toBe(true)
      expect(check?.(r)).toBe(true)
    }
  })

  it('never accepts what zod refuses (random edits of real records)', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: records.length - 1 }),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (i, edits) => {
          const value = apply(records[i] as Record<string, unknown>, edits)
          if (check?.(value)) expect(exportedRecordSchema.safeParse(value).success).toBe(true)
        },
      ),
      { numRuns: 20_000 },
    )
  })

  it('agrees with zod on the edits it is meant for: a field of the wrong type, missing or extra', () => {
    const base = records[0] as Record<string, unknown>
    const cases: unknown[] = [
      { ...base, localId: '' },
      { ...base, amountCents: 1.5 },
      { ...base, amountCents: 2 ** 53 },
      { ...base, localState: 'done' },
      { ...base, flags: ['a', 1] },
      { ...base, request: [] },
      { ...base, lastRemote: [] },
      { ...base, error: { kind: 'x', status: null, messageCode: null, denialCode: null } },
      { ...base, extra: 1 },
      JSON.parse(JSON.stringify(base).replace(/\}$/, ',"__proto__":{}}')),
      Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'flags')),
    ]
    for (const c of cases) {
      expect(exportedRecordSchema.safeParse(c).success).toBe(false)
      expect(check?.(c)).toBe(false)
    }
    const error = { kind: 'x', status: null, messageCode: null, denialCode: null, requestId: null, more: [1] }
    expect(check?.({ ...base, error })).toBe(true)
    expect(check?.({ ...base, error: { ...error, message: 'm' } })).toBe(true)
    expect(check?.({ ...base, error: { ...error, message: 1 } })).toBe(false)
  })

  it('compiles nothing for rules it does not know (zod then checks everything)', () => {
    expect(compileSchemaPrecheck(z.object({ at: z.iso.datetime() }))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ at: z.string().regex(/x/) }))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ at: z.string().refine(() => true) }))).toBeNull()
    expect(compileSchemaPrecheck(z.union([z.string(), z.number()]))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ n: z.number().min(1) }))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ n: z.string().default('x') }))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ n: z.coerce.number() }))).toBeNull()
    // Only what the kinds' schemas use is compiled: a plain number or a boolean is left to zod.
    expect(compileSchemaPrecheck(z.object({ n: z.number() }))).toBeNull()
    expect(compileSchemaPrecheck(z.object({ b: z.boolean() }))).toBeNull()
  })
})
