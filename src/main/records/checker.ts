/**
 * The verifier's helper thread: the SHA-256 of each file, the CSV check (kernel.ts) and the fast pass over
 * audit.jsonl (audit-kernel.ts), while the main thread parses and validates records.json. Files are read into shared memory (verify.ts), so the thread reads the very
 * bytes the main thread checks, without a copy.
 *
 * Like the exporter's worker (output.ts) it starts from a plain-JS source string, and its copy of the CSV code is
 * `csvReaderKernel.toString()`: before it checks a file, it checks a sample that the main thread checks too, and
 * the results must be identical; else (or where no worker starts) the CSV is checked on the main thread. The audit
 * kernel is probed the same way; an audit member it does not find clean is read by readAuditMember here. So is the
 * state-hash kernel (state-kernel.ts), which hashes records.json's lines while this thread proves them.
 */
import { createHash, hash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { auditHash } from '../ledger/audit-hash'
import { canonicalJson } from '../ledger/canonical-json'
import { auditLineOfText, readAuditMember, redactedLine, type AuditSummary, type Head } from './audit-member'
import { auditReaderKernel, type AuditKernelResult } from './audit-kernel'
import { csvReader, csvReaderKernel, type CsvCheck, type CsvCheckSpec } from './kernel'
import { stateHashKernel, type StateLines, type StateRange } from './state-kernel'

export interface Checker {
  sha256(data: Buffer): Promise<string>
  checkCsv(data: Buffer, spec: CsvCheckSpec): Promise<CsvCheck>
  /** audit.jsonl read and checked as readAuditMember does (valid UTF-8, checked by the caller). */
  auditSummary(data: Buffer, head: Head | null): Promise<AuditSummary>
  /**
   * records.json's per-line state hashes (state-kernel.ts), computed on the worker; null when they are not (no
   * worker, its copy failed the probe, or it stopped): the caller then hashes on its own thread.
   */
  stateHashes(data: Buffer, range: StateRange): Promise<StateLines | null>
  /** Whether CSV files are checked on the worker (its copy of the code passed the probe). */
  readonly csvOnWorker: Promise<boolean>
  /** Whether audit members are read on the worker (its copy of audit-kernel.ts passed the probe). */
  readonly auditOnWorker: Promise<boolean>
  /** Whether records.json's state hashes are computed on the worker (state-kernel.ts passed the probe). */
  readonly statesOnWorker: Promise<boolean>
  close(): Promise<void>
}

const WORKER_SOURCE = (readerSource: string, auditSource: string, stateSource: string): string => `
const { parentPort } = require('node:worker_threads')
const { createHash, hash } = require('node:crypto')
// One-shot where it exists (a third of createHash's cost per call: 200k audit lines, 100k states).
const sha256Hex =
  typeof hash === 'function' ? (d) => hash('sha256', d) : (d) => createHash('sha256').update(d).digest('hex')
let R = null
let A = null
let S = null
try {
  // __name: the helper some TypeScript toolchains (esbuild's keepNames) insert into function bodies.
  R = new Function('__name', 'return (' + ${JSON.stringify(readerSource)} + ')()')((f) => f)
} catch {
  // the probe fails: CSV files are then checked on the main thread
}
try {
  A = new Function('__name', 'sha256Hex', 'return (' + ${JSON.stringify(auditSource)} + ')(sha256Hex)')((f) => f, sha256Hex)
} catch {
  // the probe fails: audit members are then read on the main thread
}
try {
  S = new Function('__name', 'sha256Hex', 'return (' + ${JSON.stringify(stateSource)} + ')(sha256Hex)')((f) => f, sha256Hex)
} catch {
  // the probe fails: state hashes are then computed on the main thread
}
parentPort.on('message', (m) => {
  try {
    const data = Buffer.from(m.data, m.offset, m.length)
    const result =
      m.op === 'sha256'
        ? createHash('sha256').update(data).digest('hex')
        : m.op === 'audit'
          ? A.readAudit(data, m.spec)
          : m.op === 'states'
            ? S.hashLines(data, m.spec)
            : R.checkCsvRows(data, m.spec)
    parentPort.postMessage({ id: m.id, result })
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.message) })
  }
})
`

/** A small CSV with every case the check distinguishes, and its spec. */
function probe(): { data: Buffer; spec: CsvCheckSpec } {
  const spec: CsvCheckSpec = {
    delimiter: ';',
    locale: 'pt-BR',
    header: ['s', 'r', 'd', 'p'],
    at: { status: 0, refunded: 1, deposit: 2, payout: 3 },
    yesNo: ['sim', 'não'],
    maxListed: 2,
  }
  const text =
    's;r;d;p\r\nsent;não;1.234,56;\r\n\'=x;sim;0,01;2,00\nsent;talvez;1,00;1,00\r\n"a;""b""\nc";não;1,00;x\r\n' +
    'a;b\r\nsent;não;;\r\n"a,\'=b;\'\'c";"não";"3,00";"4,00"\r\nJoão 😀;não;12,34;5,67'
  return { data: shared(Buffer.from(text, 'utf8')), spec }
}

/** `data` in shared memory (copied when it is not). */
function shared(data: Buffer): Buffer {
  if (data.buffer instanceof SharedArrayBuffer) return data
  const copy = Buffer.from(new SharedArrayBuffer(data.length))
  data.copy(copy)
  return copy
}

/** The kernel on this thread (the fallback, and the reference the worker's copy is compared with). */
const auditReader = auditReaderKernel((text) => hash('sha256', text))

/** Three entries of a chain (one with details out of canonical order in the source object) and a redaction. */
function auditProbe(): { data: Buffer; head: Head } {
  let prevHash = ''
  let text = ''
  const sources = [
    { subject: 'w1', details: { b: 1, a: ['x', { d: null, c: 'é\u2028' }] }, stateHash: 'f'.repeat(64) },
    { subject: null, details: {} },
    { subject: 'w1', details: { z: -1.5e-7 }, stateHash: null },
  ]
  for (const [i, s] of sources.entries()) {
    const e = { seq: i + 1, at: '2026-11-25T12:00:00.000Z', operator: 'ana', action: 'x', prevHash, ...s }
    const entry = { ...e, hash: auditHash(e) }
    text += auditLineOfText(entry, canonicalJson(entry.details))
    prevHash = entry.hash
  }
  text += redactedLine(['w1'])
  return { data: shared(Buffer.from(text, 'utf8')), head: { seq: sources.length, hash: prevHash } }
}

/** readAuditMember's summary from a clean kernel result, or readAuditMember itself. */
function summaryOf(got: AuditKernelResult | { clean: false }, data: Buffer, head: Head | null): AuditSummary {
  if (!got.clean) return readAuditMember(data.toString('utf8'), head)
  const out: AuditSummary = {
    entries: got.seqs.length,
    latest: new Map(),
    hashes: new Map(),
    redacted: new Set(got.redacted),
    problems: [],
  }
  for (let i = 0; i < got.seqs.length; i++) {
    const seq = got.seqs[i]!
    const subject = got.subjects[i]!
    const stateHash = got.stateHashes[i]!
    out.hashes.set(seq, { hash: got.hashes[i]!, subject })
    if (subject !== null && stateHash !== null) out.latest.set(subject, { seq, stateHash })
  }
  return out
}

/** The state kernel on this thread: the reference the worker's copy is compared with. */
const stateHasher = stateHashKernel((bytes) => hash('sha256', bytes))

/**
 * Lines of every shape the kernel tells apart: null and string first members, an escaped quote and non-ASCII in
 * it, a line not in the layout, a state of no members, the last line without its comma.
 */
function stateProbe(): { data: Buffer; range: StateRange } {
  const head = '{"h":[\n'
  const lines = [
    '{"remoteCheckedAt":null,"a":1,"b":"é😀"}',
    String.raw`{"remoteCheckedAt":"x\\\",y","c":[1,{"d":"}"}]}`,
    '{"a":1,"remoteCheckedAt":null}',
    '{"remoteCheckedAt":"2026-11-25T12:00:00.000Z"}',
    '{"remoteCheckedAt":"ç","z":null}',
  ]
  const tail = '\n]}\n'
  const text = head + lines.join(',\n') + tail
  const data = shared(Buffer.from(text, 'utf8'))
  return { data, range: { from: Buffer.byteLength(head), to: data.length - Buffer.byteLength(tail) } }
}

const auditHere = (data: Buffer, head: Head | null): AuditSummary =>
  summaryOf(auditReader.readAudit(data, head), data, head)

function inlineChecker(): Checker {
  return {
    sha256: async (data) => createHash('sha256').update(data).digest('hex'),
    checkCsv: async (data, spec) => csvReader.checkCsvRows(data, spec),
    auditSummary: async (data, head) => auditHere(data, head),
    stateHashes: async () => null,
    csvOnWorker: Promise.resolve(false),
    auditOnWorker: Promise.resolve(false),
    statesOnWorker: Promise.resolve(false),
    close: async () => undefined,
  }
}

export function createChecker(): Checker {
  let worker: Worker
  try {
    worker = new Worker(
      WORKER_SOURCE(csvReaderKernel.toString(), auditReaderKernel.toString(), stateHashKernel.toString()),
      { eval: true },
    )
  } catch {
    return inlineChecker()
  }
  let nextId = 1
  let failure: Error | null = null
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id)
    waiting.delete(m.id)
    if (m.error !== undefined) w?.reject(new Error(m.error))
    else w?.resolve(m.result)
  })
  const stop = (e: Error): void => {
    failure ??= e
    for (const w of waiting.values()) w.reject(failure)
    waiting.clear()
  }
  let closing = false
  worker.on('error', stop)
  worker.on('exit', () => {
    if (!closing) stop(new Error('the verifier thread stopped'))
  })
  const call = <T>(op: string, data: Buffer, spec?: CsvCheckSpec | Head | StateRange | null): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure)
      const id = nextId++
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
      const d = shared(data)
      worker.postMessage({ op, id, data: d.buffer, offset: d.byteOffset, length: d.length, spec })
    })
  const sample = probe()
  const trusted = call<CsvCheck>('csv', sample.data, sample.spec).then(
    (got) => JSON.stringify(got) === JSON.stringify(csvReader.checkCsvRows(sample.data, sample.spec)),
    () => false,
  )
  const auditSample = auditProbe()
  const auditTrusted = call<unknown>('audit', auditSample.data, auditSample.head).then(
    (got) =>
      JSON.stringify(got) === JSON.stringify(auditReader.readAudit(auditSample.data, auditSample.head)),
    () => false,
  )
  const stateSample = stateProbe()
  const statesTrusted = call<StateLines>('states', stateSample.data, stateSample.range).then(
    (got) =>
      JSON.stringify(got) === JSON.stringify(stateHasher.hashLines(stateSample.data, stateSample.range)),
    () => false,
  )
  return {
    sha256: (data) => call<string>('sha256', data),
    async checkCsv(data, spec) {
      if (!(await trusted)) return csvReader.checkCsvRows(data, spec)
      // A worker that stopped working (not a file that is wrong: that is a result) leaves it to this thread.
      return call<CsvCheck>('csv', data, spec).catch(() => csvReader.checkCsvRows(data, spec))
    },
    async auditSummary(data, head) {
      if (!(await auditTrusted)) return auditHere(data, head)
      const got = await call<AuditKernelResult | { clean: false }>('audit', data, head).catch(() =>
        auditReader.readAudit(data, head),
      )
      return summaryOf(got, data, head)
    },
    async stateHashes(data, range) {
      if (!(await statesTrusted)) return null
      return call<StateLines>('states', data, range).catch(() => null)
    },
    csvOnWorker: trusted,
    auditOnWorker: auditTrusted,
    statesOnWorker: statesTrusted,
    close: async () => {
      closing = true
      await worker.terminate()
    },
  }
}
