/**
 * The verifier's per-record tables (audit-tables.ts, issue #30): they answer as the Maps they replace, exactly
 * (any string an id may be, any string a hash may be, entries out of order), and what they retain per record
 * stays compact: the heap a summary of 100,000 records and 200,000 entries holds after a full collection.
 */
import { createHash } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { EntryTable, IdTable, LatestTable, RecordStates } from '../../../src/main/records/audit-tables'

const sha = (s: string): string => createHash('sha256').update(s).digest('hex')

describe('IdTable', () => {
  it('tells apart every id, whatever characters it holds, and gives each back exactly', () => {
    const ids = new IdTable()
    const odd = ['a', 'A', 'ã', 'ã\u0000', '\ud800', '\udc00', '\ud83d\ude00', '漢字', 'x'.repeat(5_000), '']
    const many = Array.from({ length: 3_000 }, (_, i) => `rec-${i}`)
    const all = [...odd, ...many]
    const at = all.map((id) => ids.find(id, true))
    expect(new Set(at).size).toBe(all.length)
    expect(ids.size).toBe(all.length)
    for (const [k, id] of all.entries()) {
      expect(ids.find(id)).toBe(at[k])
      expect(ids.id(at[k]!)).toBe(id)
    }
    expect(ids.find('rec-3000')).toBe(-1)
    expect(ids.find('\udbff')).toBe(-1)
    expect(ids.size).toBe(all.length)
  })
})

describe('EntryTable and LatestTable', () => {
  it('answer as Maps do, also for hashes that are not SHA-256 hex and seqs out of order', () => {
    const ids = new IdTable()
    const entries = new EntryTable(ids)
    const map = new Map<number, { hash: string; subject: string | null }>()
    const put = (seq: number, hash: string, subject: string | null): void => {
      entries.set(seq, { hash, subject })
      map.set(seq, { hash, subject })
    }
    put(1, sha('1'), 'r1')
    put(2, 'ABC', null)
    put(5, sha('5').toUpperCase(), 'r2')
    put(9, sha('9'), 'r1')
    const check = (): void => {
      expect([...entries]).toEqual([...map])
      expect(entries.size).toBe(map.size)
      for (const seq of [0, 1, 2, 3, 5, 9, 10]) expect(entries.get(seq)).toEqual(map.get(seq))
    }
    check()
    // A tampered member: a seq repeated, then one out of order.
    put(9, sha('other'), 'r3')
    put(4, sha('4'), 'r4')
    check()
    expect(entries.subjectWhere((i) => ids.id(i) === 'r4')).toBe('r4')

    // A seq past what the compact column holds.
    const far = new EntryTable(ids)
    far.set(7, { hash: sha('7'), subject: 'r1' })
    far.set(2 ** 40, { hash: sha('far'), subject: null })
    expect([...far]).toEqual([
      [7, { hash: sha('7'), subject: 'r1' }],
      [2 ** 40, { hash: sha('far'), subject: null }],
    ])

    const latest = new LatestTable(ids)
    latest.set('r1', { seq: 1, stateHash: sha('a') })
    latest.set('r1', { seq: 9, stateHash: 'not hex' })
    latest.set('r2', { seq: 5, stateHash: sha('b') })
    expect(latest.get('r1')).toEqual({ seq: 9, stateHash: 'not hex' })
    expect(latest.get('r2')).toEqual({ seq: 5, stateHash: sha('b') })
    expect(latest.get('r3')).toBeUndefined()
    expect(latest.size).toBe(2)
  })
})

describe('RecordStates', () => {
  it('gives each record its state hash in file order; only those unlike their entry are unmatched', () => {
    const latest = new LatestTable(new IdTable())
    latest.set('b', { seq: 2, stateHash: sha('b') })
    latest.set('a', { seq: 1, stateHash: sha('a') })
    const states = new RecordStates(latest)
    states.set('a', sha('a'))
    states.set('c', sha('c'))
    states.set('b', sha('changed'))
    expect([...states]).toEqual([
      ['a', sha('a')],
      ['c', sha('c')],
      ['b', sha('changed')],
    ])
    expect([...states.unmatched()]).toEqual([
      ['c', sha('c')],
      ['b', sha('changed')],
    ])
    // A repeated localId keeps its place and takes the later hash, as Map.set does.
    states.set('b', sha('b'))
    expect([...states.unmatched()]).toEqual([['c', sha('c')]])
    expect(states.get('b')).toBe(sha('b'))
    expect(states.has('z')).toBe(false)
    expect(states.size).toBe(3)
    // What the review keeps: which records were exported, not their hashes.
    const exported = states.exportedOnly()
    expect([...exported.keys()]).toEqual(['a', 'c', 'b'])
    expect(exported.has('c') && !exported.has('z')).toBe(true)
    expect(exported.get('a')).toBeUndefined()
  })
})

describe('memory', () => {
  it('a summary of 100,000 records and 200,000 entries retains under 300 bytes a record', () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const used = (): number => {
      gc()
      const m = process.memoryUsage()
      return m.heapUsed + m.arrayBuffers
    }
    const n = 100_000
    const before = used()
    const ids = new IdTable()
    const entries = new EntryTable(ids)
    const latest = new LatestTable(ids)
    // Ids and hashes as JSON.parse makes them (fresh strings, none shared with the tables).
    for (let i = 0; i < n; i++) {
      const id = JSON.parse(
        `"${sha(`id${i}`).slice(0, 8)}-4e1c-4b5a-9d3f-${String(i).padStart(12, '0')}"`,
      ) as string
      entries.set(2 * i + 1, { hash: sha(`e${i}`), subject: id })
      entries.set(2 * i + 2, { hash: sha(`f${i}`), subject: id })
      latest.set(id, { seq: 2 * i + 2, stateHash: sha(`s${i}`) })
    }
    const states = new RecordStates(latest)
    for (let i = 0; i < n; i++) {
      const id = ids.id(i)
      states.set(id, (latest.get(id) as { stateHash: string }).stateHash)
    }
    const perRecord = (used() - before) / n
    expect(states.size).toBe(n)
    expect([...states.unmatched()]).toEqual([])
    // The Maps these replace held about 460 bytes a record (docs/BENCHMARKS.md); these about 240.
    expect(perRecord).toBeLessThan(300)
    expect(entries.get(2 * n)?.subject).toBe(ids.id(n - 1))
  })
})
