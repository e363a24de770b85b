/**
 * records.json's state hashes on the checker's thread (state-kernel.ts, state-order.ts): the worker's copy passes
 * its probe and hashes each exported line's state bytes exactly as the main thread would (stateHashOfLine), and a
 * hash from there is used only for a line at the very byte offsets the main thread proved: a shifted, misplaced or
 * wrong answer from the worker never stands in for a line, and an edited record is still found.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { hash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChecker, type Checker } from '../../../src/main/records/checker'
import { verifyExport, type ExportResult } from '../../../src/main/records/index'
import { JSON_HEAD, JSON_TAIL } from '../../../src/main/records/json'
import { provenPrefix, stateHashOfLine } from '../../../src/main/records/record-line'
import { stateHashKernel, type StateLines } from '../../../src/main/records/state-kernel'
import { StateHashOrder } from '../../../src/main/records/state-order'
import { recordStateHash } from '../../../src/main/ledger/state-hash'
import { makeRecords, nastyRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, fileIn, fixHash, readManifest, resign, SIGNER, writeManifest } from './helpers'

const kernel = stateHashKernel((b) => hash('sha256', b))
let checker: Checker
let exported: ExportResult
let buf: Buffer
// Its own folder: the helpers' afterEach removes every tempDir after each test.
let dir: string

beforeAll(async () => {
  checker = createChecker()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-states-'))
  const { ledger } = seededLedger([...makeRecords(40, { seed: 7 }), ...nastyRecords()], dir)
  exported = await exportTo(ledger, { dir })
  ledger.close()
  buf = fs.readFileSync(fileIn(exported, 'records.json'))
})
afterAll(async () => {
  await checker.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const range = (b: Buffer): { from: number; to: number } => ({
  from: Buffer.byteLength(JSON_HEAD),
  to: b.length - Buffer.byteLength(JSON_TAIL),
})
/** records.json's lines (without separators) and their byte offsets, as readRecordsFile sees them. */
function linesOf(b: Buffer): Array<{ line: string; start: number; stop: number }> {
  const out: Array<{ line: string; start: number; stop: number }> = []
  const { from, to } = range(b)
  let i = from
  while (i < to) {
    let nl = b.indexOf(0x0a, i)
    if (nl === -1 || nl > to) nl = to
    const stop = nl === to ? nl : nl - 1
    out.push({ line: b.toString('utf8', i, stop), start: i, stop })
    i = nl + 1
  }
  return out
}
const sharedCopy = (b: Buffer): Buffer => {
  const s = Buffer.from(new SharedArrayBuffer(b.length))
  b.copy(s)
  return s
}

describe('state hashes on the checker thread', { timeout: 60_000 }, () => {
  it('runs on the worker and hashes every exported line as the main thread does', async () => {
    expect(await checker.statesOnWorker).toBe(true)
    const there = await checker.stateHashes(buf, range(buf))
    expect(there).not.toBeNull()
    const lines = linesOf(buf)
    expect(lines.length).toBeGreaterThan(40)
    expect(there!.starts).toEqual(lines.map((l) => l.start))
    expect(there!.stops).toEqual(lines.map((l) => l.stop))
    for (const [k, l] of lines.entries()) {
      const parsed = JSON.parse(l.line) as { remoteCheckedAt: string | null }
      const prefix = provenPrefix(l.line, parsed)
      expect(prefix).not.toBeNull()
      expect(there!.commas[k]).toBe(l.start + Buffer.byteLength(prefix!))
      expect(there!.hashes[k]).toBe(stateHashOfLine(l.line, parsed))
      expect(there!.hashes[k]).toBe(recordStateHash(parsed))
    }
    // The worker's copy gives what this thread's copy gives.
    expect(there).toEqual(kernel.hashLines(buf, range(buf)))
  })

  it('odd first members: the worker agrees with this thread, and never offsets a line it cannot read', async () => {
    const odd = [
      String.raw`{"remoteCheckedAt":"a\"b,c","x":1}`,
      String.raw`{"remoteCheckedAt":"a\\","x":1}`,
      '{"remoteCheckedAt":"sem fim,"x":1}',
      '{"remoteCheckedAt":nul,"x":1}',
      '{"remoteCheckedAt":null}',
      '{"remoteCheckedAt":null,',
      '{"x":1,"remoteCheckedAt":null}',
      ' {"remoteCheckedAt":null,"x":1}',
      '{"remoteCheckedAt":"ã😀","y":"é"}',
    ]
    const text = JSON_HEAD + odd.join(',\n') + JSON_TAIL
    const b = sharedCopy(Buffer.from(text, 'utf8'))
    const here = kernel.hashLines(b, range(b))
    expect(await checker.stateHashes(b, range(b))).toEqual(here)
    expect(here.commas.map((c, k) => (c < 0 ? -1 : c - here.starts[k]!))).toEqual([
      27, 24, -1, -1, -1, 23, -1, -1, 27,
    ])
    expect(here.hashes[0]).toBe(hash('sha256', '{"x":1}'))
    expect(here.hashes[8]).toBe(hash('sha256', '{"y":"é"}'))
    expect(here.hashes.filter((h, k) => (h === '') !== here.commas[k]! < 0)).toEqual([])
  })

  it('uses a hash from there only at the offsets proven here', () => {
    const lines = linesOf(buf).slice(0, 6)
    const expected = lines.map((l) => stateHashOfLine(l.line, JSON.parse(l.line))!)
    const order = (): StateHashOrder => {
      const o = new StateHashOrder(buf)
      for (const [k, l] of lines.entries()) {
        const prefix = provenPrefix(l.line, JSON.parse(l.line))!
        o.lineBytes(`id${k}`, l.start, l.start + Buffer.byteLength(prefix), l.stop)
      }
      return o
    }
    const want = new Map(expected.map((h, k) => [`id${k}`, h]))
    const good = kernel.hashLines(buf, range(buf))
    expect(order().result(good)).toEqual(want)
    expect(order().result(null)).toEqual(want)
    const bogus = (edit: (t: StateLines) => void): StateLines => {
      const t = structuredClone(good)
      edit(t)
      return t
    }
    // An extra line first (everything shifted by one), a comma one byte off, a stop one byte off, a wrong hash at
    // the right offsets: only the last may change a result, and only into "differs from its entry".
    const shifted = bogus((t) => {
      t.starts.unshift(0)
      t.commas.unshift(1)
      t.stops.unshift(2)
      t.hashes.unshift('0'.repeat(64))
      t.hashes.pop()
    })
    expect(order().result(shifted)).toEqual(want)
    // Each off-by-one answer carries a wrong hash: it must not be taken.
    const off = (edit: (t: StateLines) => void, k: number): StateLines =>
      bogus((t) => {
        edit(t)
        t.hashes[k] = 'e'.repeat(64)
      })
    expect(order().result(off((t) => (t.starts[1] = t.starts[1]! + 1), 1))).toEqual(want)
    expect(order().result(off((t) => (t.commas[2] = t.commas[2]! + 1), 2))).toEqual(want)
    expect(order().result(off((t) => (t.stops[3] = t.stops[3]! - 1), 3))).toEqual(want)
    expect(order().result(bogus((t) => (t.hashes[4] = '')))).toEqual(want)
    const wrong = order().result(bogus((t) => (t.hashes[5] = 'f'.repeat(64))))
    expect(wrong.get('id5')).toBe('f'.repeat(64))
    expect([...wrong].filter(([k, h]) => h !== want.get(k))).toEqual([['id5', 'f'.repeat(64)]])
  })

  it('a localId seen twice keeps its last hash, whichever thread hashed it', () => {
    const [a, b] = linesOf(buf)
    const o = new StateHashOrder(buf)
    o.set('x', 'early')
    o.lineBytes(
      'x',
      a!.start,
      a!.start + Buffer.byteLength(provenPrefix(a!.line, JSON.parse(a!.line))!),
      a!.stop,
    )
    o.set('y', 'only')
    expect(o.result(kernel.hashLines(buf, range(buf)))).toEqual(
      new Map([
        ['x', stateHashOfLine(a!.line, JSON.parse(a!.line))],
        ['y', 'only'],
      ]),
    )
    const p = new StateHashOrder(buf)
    p.lineBytes(
      'x',
      b!.start,
      b!.start + Buffer.byteLength(provenPrefix(b!.line, JSON.parse(b!.line))!),
      b!.stop,
    )
    p.set('x', 'late')
    expect(p.result(null).get('x')).toBe('late')
  })

  it('verifyExport: intact verifies; an edited record in the layout is still found against its entry', async () => {
    expect((await verifyExport(exported.manifestPath)).problems).toEqual([])
    const folder = tempDir('records-states-edit-')
    fs.cpSync(exported.folder, folder, { recursive: true })
    const ex = { ...exported, folder, manifestPath: `${folder}/manifest.json` }
    const file = fileIn(ex, 'records.json')
    const text = fs.readFileSync(file, 'utf8')
    const lines = text.slice(JSON_HEAD.length, -JSON_TAIL.length).split(',\n')
    // The last line (no separating comma after it), edited in place and kept in the state layout.
    const last = JSON.parse(lines.at(-1)!) as { localId: string; receiverName: string | null }
    const edited = lines.at(-1)!.replace(/"receiverName":("[^"]*"|null)/, '"receiverName":"Mallory"')
    expect(edited).not.toBe(lines.at(-1))
    lines[lines.length - 1] = edited
    fs.writeFileSync(file, JSON_HEAD + lines.join(',\n') + JSON_TAIL)
    const m = readManifest(ex)
    fixHash(ex, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(false)
    expect(v.problems.map((p) => `${p.file}:${p.check}`)).toEqual(['records.json:audit'])
    expect(v.problems[0]!.detail).toContain(last.localId)
  })
})
