/**
 * The verifier's helper thread: the SHA-256 of each file and the CSV check (kernel.ts), while the main thread
 * parses and validates records.json. Files are read into shared memory (verify.ts), so the thread reads the very
 * bytes the main thread checks, without a copy.
 *
 * Like the exporter's worker (output.ts) it starts from a plain-JS source string, and its copy of the CSV code is
 * `csvReaderKernel.toString()`: before it checks a file, it checks a sample that the main thread checks too, and
 * the results must be identical; else (or where no worker starts) the CSV is checked on the main thread.
 */
import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { csvReader, csvReaderKernel, type CsvCheck, type CsvCheckSpec } from './kernel'

export interface Checker {
  sha256(data: Buffer): Promise<string>
  checkCsv(data: Buffer, spec: CsvCheckSpec): Promise<CsvCheck>
  /** Whether CSV files are checked on the worker (its copy of the code passed the probe). */
  readonly csvOnWorker: Promise<boolean>
  close(): Promise<void>
}

const WORKER_SOURCE = (readerSource: string): string => `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
let R = null
try {
  // __name: the helper some TypeScript toolchains (esbuild's keepNames) insert into function bodies.
  R = new Function('__name', 'return (' + ${JSON.stringify(readerSource)} + ')()')((f) => f)
} catch {
  // the probe fails: CSV files are then checked on the main thread
}
parentPort.on('message', (m) => {
  try {
    const data = Buffer.from(m.data, m.offset, m.length)
    const result = m.op === 'sha256' ? createHash('sha256').update(data).digest('hex') : R.checkCsvRows(data, m.spec)
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

function inlineChecker(): Checker {
  return {
    sha256: async (data) => createHash('sha256').update(data).digest('hex'),
    checkCsv: async (data, spec) => csvReader.checkCsvRows(data, spec),
    csvOnWorker: Promise.resolve(false),
    close: async () => undefined,
  }
}

export function createChecker(): Checker {
  let worker: Worker
  try {
    worker = new Worker(WORKER_SOURCE(csvReaderKernel.toString()), { eval: true })
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
  const call = <T>(op: string, data: Buffer, spec?: CsvCheckSpec): Promise<T> =>
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
  return {
    sha256: (data) => call<string>('sha256', data),
    async checkCsv(data, spec) {
      if (!(await trusted)) return csvReader.checkCsvRows(data, spec)
      // A worker that stopped working (not a file that is wrong: that is a result) leaves it to this thread.
      return call<CsvCheck>('csv', data, spec).catch(() => csvReader.checkCsvRows(data, spec))
    },
    csvOnWorker: trusted,
    close: async () => {
      closing = true
      await worker.terminate()
    },
  }
}
