/**
 * The state layout of records.json (record-line.ts): a line's state bytes hash to the record's state hash, and a
 * line that is not exactly the layout of what it parses to gets no hash at all — whatever its bytes hash to.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { recordStateHash } from '../../../src/main/ledger/model/state-hash'
import { recordLine } from '../../../src/main/records/record-line'
import { stateHashOfLine } from './helpers'
import { makeRecords, nastyRecords } from './fixtures'

const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex')
const hashOf = (line: string): string | null => stateHashOfLine(line, JSON.parse(line) as unknown)
const record = [...makeRecords(1)][0]!
const genuine = recordLine(record)

describe('recordLine / stateHashOfLine', () => {
  it('remoteCheckedAt first, then the state in canonical JSON: its bytes are the state hash', () => {
    expect(genuine.startsWith(`{"remoteCheckedAt":${JSON.stringify(record.remoteCheckedAt)},`)).toBe(true)
    const state = `{${genuine.slice(genuine.indexOf(',') + 1)}`
    expect(sha(state)).toBe(recordStateHash(record))
    expect(hashOf(genuine)).toBe(recordStateHash(record))
    // Plain JSON: the same record comes back.
    expect(JSON.parse(genuine)).toEqual(record)
  })

  it('every fixture record, nasty text and a null remoteCheckedAt included, hashes to its state hash', () => {
    const all = [...makeRecords(300, { seed: 5 }), ...nastyRecords(), { ...record, remoteCheckedAt: null }]
    for (const r of all) expect(hashOf(recordLine(r))).toBe(recordStateHash(r))
  })

  it('property: any raw body (array-index keys, "__proto__", odd strings and numbers) keeps the two equal', () => {
    const key = fc.oneof(
      fc.constantFrom('0', '9', '10', '__proto__', 'remoteCheckedAt', 'a', 'Z', 'é'),
      fc.string(),
    )
    const body = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 })
    fc.assert(
      fc.property(body, fc.option(fc.string()), (lastRemote, checked) => {
        const r = { ...record, lastRemote, remoteCheckedAt: checked }
        const line = recordLine(r)
        expect(hashOf(line)).toBe(recordStateHash(JSON.parse(line) as typeof r))
        expect(hashOf(line)).toBe(recordStateHash(r))
      }),
      { numRuns: 300 },
    )
  })

  it('a line with array-index keys (JavaScript reorders them) is checked the slow way, exactly', () => {
    const r = { ...record, lastRemote: { 10: 'b', 9: 'a', z: { 2: 1, 1: 2 } } }
    const line = recordLine(r)
    expect(line).toContain('"lastRemote":{"10":"b","9":"a","z":{"1":2,"2":1}}')
    expect(hashOf(line)).toBe(recordStateHash(r))
    // The numeric order JavaScript would write is not the canonical one: refused.
    expect(hashOf(line.replace('{"10":"b","9":"a"', '{"9":"a","10":"b"'))).toBeNull()
  })

  const variants: Array<[string, (l: string) => string]> = [
    [
      'a duplicated member (the later value wins in JSON.parse)',
      (l) => l.replace(/"amountCents":(\d+)/, '"amountCents":$1,"amountCents":1'),
    ],
    [
      'a duplicated member with the same value',
      (l) => l.replace(/"amountCents":(\d+)/, '"amountCents":$1,"amountCents":$1'),
    ],
    ['a duplicated nested member', (l) => l.replace('"request":{', '"request":{"pixKey":"x",')],
    [
      'remoteCheckedAt twice, the second one other',
      (l) => l.replace(/,"remoteId"/, ',"remoteCheckedAt":null,"remoteId"'),
    ],
    [
      'remoteCheckedAt not first',
      (l) => `{${l.slice(l.indexOf(',') + 1, -1)},${l.slice(1, l.indexOf(','))}}`,
    ],
    ['whitespace between members', (l) => l.replace(/,"localId"/, ', "localId"')],
    [
      'an escape where the character is written as is',
      (l) => l.replace('"localId":"rec', '"localId":"\\u0072ec'),
    ],
    ['a number written another way', (l) => l.replace(/"amountCents":(\d+)/, '"amountCents":$1.0')],
    [
      'two members swapped',
      (l) => l.replace(/"amountCents":(\d+),"amountKind":"(\w+)"/, '"amountKind":"$2","amountCents":$1'),
    ],
    [
      'nested members swapped',
      (l) =>
        l.replace(
          /"request":\{"payoutAmountInCents":(\d+),"pixKey":"([^"]*)"/,
          '"request":{"pixKey":"$2","payoutAmountInCents":$1',
        ),
    ],
    [
      'a "__proto__" member',
      (l) => l.replace('"amountCents"', '"__proto__":{"amountCents":1},"amountCents"'),
    ],
    ['a member added at the end, out of order', (l) => `${l.slice(0, -1)},"aa":1}`],
  ]
  for (const [what, edit] of variants) {
    it(`no hash for a line with ${what}, even where a hash of its bytes was forged to match`, () => {
      const line = edit(genuine)
      expect(line).not.toBe(genuine)
      const parsed = JSON.parse(line) as unknown
      // What an attacker holding the signing key would put in the audit entry: the hash of these very bytes.
      const forged = sha(`{${line.slice(line.indexOf(',') + 1)}`)
      const got = stateHashOfLine(line, parsed)
      if (what === 'a "__proto__" member') {
        // Canonical as written (JSON.parse makes it a plain member): the layout holds; the records schema,
        // strict, refuses the member (verify-state-layout.test.ts).
        expect(got).toBe(recordStateHash(parsed as typeof record))
        return
      }
      expect(got).toBeNull()
      expect(got).not.toBe(forged)
    })
  }

  it('not an object, or remoteCheckedAt not a string or null: no hash', () => {
    expect(stateHashOfLine('[1]', [1])).toBeNull()
    expect(stateHashOfLine('null', null)).toBeNull()
    const n = genuine.replace(/^\{"remoteCheckedAt":[^,]+,/, '{"remoteCheckedAt":5,')
    expect(hashOf(n)).toBeNull()
    const missing = `{${genuine.slice(genuine.indexOf(',') + 1)}`
    expect(hashOf(missing)).toBeNull()
  })
})
