/**
 * The fast check of audit.jsonl's lines (fastAuditLine): whatever the member holds, the summary read with it is
 * exactly the wording pass's alone (same entries, maps, redactions and problems), and the fast check accepts
 * every line of a member only when the wording pass finds no problem in it.
 */
import fs from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { auditHash } from '../../../src/main/ledger/model/audit-hash'
import { fastAuditLine, type FastAuditLine, type Head } from '../../../src/main/records/audit-member'
import { cleanupTempDirs, makeRecords, seededLedger } from './fixtures'
import { exportTo, fileIn, readAuditText, readManifest } from './helpers'

/** The wording pass alone, the reference. */
const readAuditMember = (t: string, h: Head | null) => readAuditText(t, h, null)
let text: string
let head: Head

beforeAll(async () => {
  const { ledger } = seededLedger(makeRecords(12))
  const [a] = ledger.query({ limit: 1 }).rows
  ledger.setFlags(a!.localId, ['checked'], 'ana')
  const res = await exportTo(ledger)
  ledger.close()
  text = fs.readFileSync(fileIn(res, 'audit.jsonl'), 'utf8')
  head = (readManifest(res) as unknown as { auditHead: Head }).auditHead
})
afterEach(() => cleanupTempDirs())

const lines = (): string[] => text.split('\n').slice(0, -1)
const join = (ls: string[]): string => ls.map((l) => `${l}\n`).join('')

/** The summary with the fast check equals the wording pass's; returns whether the fast check took every line. */
async function same(t: string, h: Head | null = head): Promise<boolean> {
  const want = readAuditMember(t, h)
  let refused = 0
  const counted: FastAuditLine = (...a) => fastAuditLine(...a) || (refused++, false)
  expect(readAuditText(t, h, counted)).toEqual(want)
  const clean = t.endsWith('\n') || t === '' ? refused === 0 : false
  if (clean) expect(want.problems).toEqual([])
  return clean
}

/** An entry line rewritten with `edit` and its hash recomputed, so only the edit itself can be wrong. */
function rehashed(line: string, edit: (e: Record<string, unknown>) => Record<string, unknown>): string {
  const e = edit(JSON.parse(line) as Record<string, unknown>)
  const { hash: _h, ...rest } = e
  return JSON.stringify({ ...e, hash: auditHash(rest as Parameters<typeof auditHash>[0]) })
}

describe('the fast pass over audit.jsonl', { timeout: 60_000 }, () => {
  it('an exported member is clean with the same summary', async () => {
    expect(lines().length).toBeGreaterThan(12)
    expect(await same(text)).toBe(true)
    expect(await same('')).toBe(true)
    const redacted = text + '{"redacted":["x1","y2"]}\n'
    expect(await same(redacted)).toBe(true)
    expect(readAuditMember(redacted, head).redacted).toEqual(new Set(['x1', 'y2']))
  })

  it('hostile or odd members: readAuditMember decides, the fast check never calls one clean that has a problem', async () => {
    const ls = lines()
    const first = ls[0]!
    const bogus = first.replace(/"hash":"[0-9a-f]{64}"/, `"hash":"${'f'.repeat(64)}"`)
    expect(bogus).not.toBe(first)
    const swap = (i: number, l: string): string => join(ls.map((x, j) => (j === i ? l : x)))
    const cases: Array<[string, string, Head | null]> = [
      ['no head', text, null],
      ['no final line feed', text.slice(0, -1), head],
      ['whitespace', swap(0, first.replace('{"action":', '{ "action":')), head],
      ['escaped letter', swap(0, first.replace('"action"', '"\\u0061ction"')), head],
      ['duplicate member', swap(0, first.replace('{"action":', '{"action":"x","action":')), head],
      ['members swapped', swap(0, first.replace(/^\{("action":"[^"]*"),("at":"[^"]*")/, '{$2,$1')), head],
      // One entry, its hash replaced and named as the head: only the hash check itself can tell.
      [
        'hash changed',
        `${bogus}\n`,
        { seq: (JSON.parse(bogus) as { seq: number }).seq, hash: 'f'.repeat(64) },
      ],
      ['two swapped', join([ls[1]!, ls[0]!, ...ls.slice(2)]), head],
      ['past the head', text, { seq: head.seq - 1, hash: head.hash }],
      ['not the head', text, { seq: head.seq, hash: '0'.repeat(64) }],
      ['not JSON', swap(2, '{'), head],
      ['an array', swap(2, '[]'), head],
      [
        'extra member',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, zz: 1 })),
        ),
        head,
      ],
      [
        'seq not safe',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, seq: 2 ** 53 })),
        ),
        head,
      ],
      [
        'seq zero',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, seq: 0 })),
        ),
        head,
      ],
      [
        'stateHash a number',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, stateHash: 1 })),
        ),
        head,
      ],
      [
        'at empty',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, at: '' })),
        ),
        head,
      ],
      [
        'subject a number',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, subject: 7 })),
        ),
        head,
      ],
      [
        'details an array',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, details: [] })),
        ),
        head,
      ],
      [
        'details out of order',
        swap(
          0,
          rehashed(first, (e) => ({ ...e, details: { b: 1, a: 2 } })),
        ),
        head,
      ],
      ['redaction not last', join([ls[0]!, '{"redacted":["x"]}', ...ls.slice(1)]), head],
      ['redaction not strings', text + '{"redacted":[1]}\n', head],
    ]
    for (const [what, t, h] of cases) {
      expect(await same(t, h), what).toBe(false)
      expect(readAuditMember(t, h).problems.length, what).toBeGreaterThan(0)
    }
  })

  it('what the fast check is not sure of goes to readAuditMember, which may accept it', async () => {
    const ls = lines()
    const withDetails = (d: string): string => {
      const e = JSON.parse(ls[0]!) as Record<string, unknown>
      const { hash: _h, ...rest } = e
      const details = JSON.parse(d) as Record<string, unknown>
      const h = auditHash({ ...rest, details } as Parameters<typeof auditHash>[0])
      // Written by hand in canonical order: JSON.stringify would list array-index keys first.
      const line = JSON.stringify({ ...e, details: '@', hash: h }).replace('"@"', d)
      return join([line, ...ls.slice(1)])
    }
    // Array-index keys: canonical text lists "10" before "9", JavaScript the other way round.
    expect(await same(withDetails('{"10":1,"9":2}'))).toBe(false)
    expect(await same(withDetails('{"__proto__":{"a":1}}'))).toBe(false)
    expect(await same(withDetails('{"a":{"__proto__":1}}'))).toBe(false)
  })
})
