import { openLedger } from '../src/main/ledger/sqlite/index'
import { recordLine } from '../src/main/records/record-line'
import { writtenAsIs } from '../src/main/ledger/model/canonical-json'

const cache = new Map<string, string[]>()
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o)
  const sig = keys.join('\u0000')
  let s = cache.get(sig)
  if (!s) { s = [...keys].sort(); cache.set(sig, s) }
  return s
}
function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v
  if (writtenAsIs(v)) return v
  if (Array.isArray(v)) return v.map(copy)
  const o = v as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const k of sortedKeys(o)) out[k] = copy(o[k])
  return out
}
function line2(r: Record<string, unknown>): string {
  const out: Record<string, unknown> = { remoteCheckedAt: r.remoteCheckedAt ?? null }
  for (const k of sortedKeys(r)) if (k !== 'remoteCheckedAt') out[k] = copy(r[k])
  return JSON.stringify(out)
}
const SECRET = /"(?:token|access[_-]?token|refresh[_-]?token|id[_-]?token|bearer|jwt|client[_-]?secret|secret|password|passwd|passphrase|authorization|proxy[_-]?authorization|cookie|set[_-]?cookie|api[_-]?key|private[_-]?key|signing[_-]?key)":/i
const scan = (s: string) => (s.includes('eyJ')) || s.includes('PRIVATE KEY') || SECRET.test(s)
const ledger = openLedger(process.argv[2]!)
const snap = ledger.snapshot()
const recs: any[] = []
for (const r of snap.iterate({})) { recs.push(r); if (recs.length >= 30000) break }
snap.close()
for (const r of recs) if (recordLine(r) !== line2(r)) throw new Error('differs ' + r.localId)
const keysOf = (v: unknown, into: Set<string>): void => {
  if (typeof v !== 'object' || v === null) return
  if (Array.isArray(v)) { for (const x of v) keysOf(x, into); return }
  for (const [k, x] of Object.entries(v)) { into.add(k); keysOf(x, into) }
}
const all = new Set<string>(); for (const r of recs) keysOf(r, all)
all.delete('remoteCheckedAt')
const LIST = ['remoteCheckedAt', ...[...all].sort()]
console.log(LIST.length)
const line3 = (r: any) => JSON.stringify(r, LIST)
let bad = 0; for (const r of recs) if (line3(r) !== recordLine(r)) bad++
console.log('bad', bad)
const time = (name: string, f: (r: any) => unknown) => { const t = performance.now(); let x = 0; for (const r of recs) { if (f(r)) x++ } ; return `${name} ${(performance.now() - t).toFixed(0)}` }
const l1 = recs.map(recordLine)
for (let round = 0; round < 5; round++) {
  console.log(time('recordLine', recordLine), time('line2', line2), time('stringify', JSON.stringify), time('list', line3), time('scan flat', (r) => 0), time('scan', (_r) => 0))
  let t = performance.now(); for (const s of l1) scan(s); console.log('scan only', (performance.now()-t).toFixed(0))
  t = performance.now(); for (const s of l1) SECRET.test(s); console.log('regex only', (performance.now()-t).toFixed(0))
  t = performance.now(); for (const s of l1) s.includes('eyJ') || s.includes('PRIVATE KEY'); console.log('includes only', (performance.now()-t).toFixed(0))
}
ledger.close()
