/**
 * The spliced forms (issue #12's performance work) against the reference ones: auditLineOfText / auditHashOfText
 * with the details' canonical text give exactly auditLine / auditHash, for every shape an entry takes; and a
 * details text that is not canonical gives another line, which the verifier then reports.
 */
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../../src/shared/withdrawal-record'
import { auditHash, auditHashOfText } from '../../../src/main/ledger/model/audit-hash'
import { canonicalJson } from '../../../src/main/ledger/model/canonical-json'
import { auditLine, auditLineOfText } from '../../../src/main/records/audit-member'
import { readAuditText } from './helpers'

const base = {
  seq: 7,
  at: '2026-11-25T10:00:00.000Z',
  operator: 'ana "a" \\ \u2028 é',
  action: 'withdrawal.imported',
  subject: 'w-1',
  prevHash: 'a'.repeat(64),
}
const shapes: Array<Omit<AuditEntry, 'hash'>> = [
  { ...base, details: {} },
  { ...base, subject: null, details: { z: 1, a: [1, { y: null, b: 'x' }], é: 'ü\n' } },
  { ...base, details: { n: -1.5e-7, big: 1e21 }, stateHash: 'b'.repeat(64) },
  { ...base, details: { k: 'v' }, stateHash: null },
]

describe('auditLineOfText / auditHashOfText', () => {
  it('equal the reference forms when given the canonical details text', () => {
    for (const shape of shapes) {
      const text = canonicalJson(shape.details)
      const hash = auditHashOfText(shape, text)
      expect(hash).toBe(auditHash(shape))
      const entry = { ...shape, hash } as AuditEntry
      const { details: _d, ...rest } = entry
      expect(auditLineOfText(rest, text)).toBe(auditLine(entry))
    }
  })

  it('a details text in another key order is another line, and the verifier says so', () => {
    const shape = shapes[1]!
    const entry = { ...shape, hash: auditHash(shape) } as AuditEntry
    const { details: _d, ...rest } = entry
    const line = auditLineOfText(rest, JSON.stringify(shape.details))
    expect(line).not.toBe(auditLine(entry))
    const read = readAuditText(line, { seq: 7, hash: entry.hash })
    expect(read.problems).toContain('entry 7: not in canonical form')
    expect(readAuditText(auditLine(entry), { seq: 7, hash: entry.hash }).problems).toEqual([])
  })
})
