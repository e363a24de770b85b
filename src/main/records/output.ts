/**
 * The exporter's files, written by one worker thread: the main thread reads the ledger, redacts and serialises
 * records, and hands the worker
 * - bytes: text encoded to UTF-8 into 1 MiB chunks, transferred (not copied); the worker writes and hashes them;
 * - rows: per record, the inputs of the kernel's row formatter (layout.ts), as JSON lines in the same chunks; the
 *   worker formats the CSV line and the report row (kernel.ts), then encodes, writes and hashes them.
 * Reading and serialising 100k records keeps one core busy; formatting, encoding, writing and hashing 270 MB is
 * about as much again, and here runs on the other core.
 *
 * Files are created exclusively ('wx': an existing file is never overwritten), and a hashed file is fsynced on
 * close. Chunks go back to the main thread once written (fresh memory costs a page fault per 4 KiB); at most
 * MAX_IN_FLIGHT bytes wait for the worker, so memory stays bounded if the disk is slow.
 *
 * The worker starts from a plain-JS source string (`eval: true`): main is bundled into one CommonJS file, and a
 * worker entry file would need its own bundler entry. The kernel's part of that source is
 * `recordsKernel.toString()`; before rows go to the worker, it formats sample rows and must give exactly what the
 * main thread's kernel gives, else rows are formatted on the main thread (slower, same bytes). Where no worker
 * starts at all, everything is written on the main thread through HashedFile.
 */
import { createReadStream } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { kernel, recordsKernel, type RowLayout } from './kernel'
import { CHUNK, createHasher, HashedFile, type WrittenFile } from './writer'

export type { WrittenFile }

/** One output file. */
export interface OutFile {
  /** Encodes `s` into the current chunk; full chunks go to the worker. */
  write(s: string): void
  /**
   * Lets the worker catch up: resolves at once while little is in flight, else when it has caught up. Also where
   * a failed write (disk full…) is reported. Call it every few thousand writes.
   */
  drain(): Promise<void>
  /** Appends the bytes of another file (e.g. a scratch file). */
  append(path: string): Promise<void>
  /** Flushes, fsyncs (when hashed) and closes; the size and SHA-256 ('' when not hashed) of what was written. */
  close(): Promise<WrittenFile>
  /** Closes without flushing, after a failure. Never throws. */
  abandon(): Promise<void>
}

/** Records' rows for the CSV and the report, in export order. */
export interface RowSink {
  /** One record's inputs (layout.ts). */
  write(inputs: readonly string[]): void
  /** As OutFile.drain. */
  drain(): Promise<void>
  /** Sends what is buffered: call it after the last row, before closing the files. */
  end(): void
  /** 'worker', or 'main' when rows are formatted on this thread. */
  readonly formattedOn: 'worker' | 'main'
}

export interface FileWriter {
  /** Creates `path` exclusively; `hashed` false: a scratch file, neither hashed nor fsynced. */
  create(path: string, hashed: boolean): Promise<OutFile>
  /**
   * From here on, `csv` and `report` receive their record rows from the sink (either may be null). Write their
   * heads first; nothing but the sink may write to them until they are closed.
   */
  rows(layout: RowLayout, csv: OutFile | null, report: OutFile | null): Promise<RowSink>
  /** Stops the worker; files not closed are abandoned. */
  close(): Promise<void>
}

const MAX_IN_FLIGHT = 32 << 20
const SPARE_CHUNKS = 16
/** Text of row inputs gathered before it goes to the worker (UTF-16 units). */
const ROWS_BATCH = 1 << 19

const WORKER_SOURCE = (kernelSource: string): string => `
const { parentPort } = require('node:worker_threads')
const fs = require('node:fs')
const { createHash } = require('node:crypto')
const CHUNK = ${CHUNK}
let K = null
try {
  // __name: the helper some TypeScript toolchains (esbuild's keepNames) insert into function bodies.
  K = new Function('__name', 'return (' + ${JSON.stringify(kernelSource)} + ')()')((f) => f)
} catch {
  // rows are then formatted on the main thread (the probe fails)
}
const files = new Map()
let rows = null
function put(f, buf) {
  let off = 0
  while (off < buf.length) off += fs.writeSync(f.fd, buf, off, buf.length - off)
  if (f.hash) f.hash.update(buf)
  f.bytes += buf.length
}
function flushText(f) {
  if (f.used === 0) return
  const n = f.used
  f.used = 0
  put(f, f.chunk.subarray(0, n))
}
function writeText(f, s) {
  if (s.length * 3 > CHUNK - f.used) {
    flushText(f)
    if (s.length * 3 > CHUNK) return put(f, Buffer.from(s, 'utf8'))
  }
  f.used += f.chunk.write(s, f.used, 'utf8')
}
function formatRows(text) {
  let i = 0
  while (i < text.length) {
    let nl = text.indexOf('\\n', i)
    if (nl === -1) nl = text.length
    const out = rows.fmt(JSON.parse(text.slice(i, nl)), rows.index++)
    if (rows.csv) writeText(rows.csv, out[0])
    if (rows.html) writeText(rows.html, out[1])
    i = nl + 1
  }
}
function append(f, path) {
  flushText(f)
  const fd = fs.openSync(path, 'r')
  try {
    for (;;) {
      const n = fs.readSync(fd, f.chunk, 0, CHUNK, null)
      if (n === 0) break
      put(f, f.chunk.subarray(0, n))
    }
  } finally {
    fs.closeSync(fd)
  }
}
const failure = (e) => ({ message: String(e && e.message), code: e && e.code })
parentPort.on('message', (m) => {
  if (m.op === 'write' || m.op === 'rows') {
    const failed = []
    const fail = (f, e) => {
      if (f && !f.error) {
        f.error = failure(e)
        failed.push({ id: f.id, error: f.error })
      }
    }
    if (m.op === 'write') {
      const f = files.get(m.id)
      if (f && !f.error) {
        try {
          flushText(f)
          put(f, Buffer.from(m.data, m.offset, m.length))
        } catch (e) {
          fail(f, e)
        }
      }
    } else if (rows && !rows.failed) {
      try {
        formatRows(m.text)
      } catch (e) {
        rows.failed = true
        fail(rows.csv, e)
        fail(rows.html, e)
      }
    }
    // A chunk goes back for reuse.
    if (m.data) parentPort.postMessage({ ack: m.length, failed, data: m.data }, [m.data])
    else parentPort.postMessage({ ack: m.length, failed })
    return
  }
  let result
  try {
    const f = files.get(m.id)
    switch (m.op) {
      case 'create':
        files.set(m.id, {
          id: m.id,
          fd: fs.openSync(m.path, 'wx'),
          hash: m.hashed ? createHash('sha256') : null,
          chunk: Buffer.allocUnsafe(CHUNK),
          used: 0,
          bytes: 0,
          error: null,
        })
        break
      case 'probe': {
        const fmt = K.rowFormatter(m.layout)
        result = m.inputs.map((x, k) => fmt(x, m.indices[k]))
        break
      }
      case 'layout':
        rows = { fmt: K.rowFormatter(m.layout), csv: files.get(m.csv) || null, html: files.get(m.html) || null, index: 0, failed: false }
        break
      case 'append':
        if (f.error) throw f.error
        append(f, m.path)
        break
      case 'close': {
        files.delete(m.id)
        try {
          if (f.error) throw f.error
          flushText(f)
        } catch (e) {
          fs.closeSync(f.fd)
          throw e
        }
        const result = { bytes: f.bytes, sha256: f.hash ? f.hash.digest('hex') : '' }
        const finish = (e) => {
          try {
            fs.closeSync(f.fd)
          } catch (c) {
            e = e || c
          }
          parentPort.postMessage(e ? { seq: m.seq, error: failure(e) } : { seq: m.seq, result })
        }
        // A scratch file (not hashed) is read back and deleted: it need not reach the disk. The fsync runs on
        // the thread pool, so the next files are written meanwhile.
        if (f.hash) fs.fsync(f.fd, finish)
        else finish(null)
        return
      }
      case 'abandon':
        if (f) {
          files.delete(m.id)
          try {
            fs.closeSync(f.fd)
          } catch {}
        }
        break
    }
  } catch (e) {
    parentPort.postMessage({ seq: m.seq, error: failure(e) })
    return
  }
  parentPort.postMessage({ seq: m.seq, result })
})
`

interface Failure {
  message: string
  code?: string
}

type Reply = {
  seq?: number
  result?: unknown
  error?: Failure
  ack?: number
  failed?: Array<{ id: number; error: Failure }>
  data?: ArrayBuffer
}

const toError = (f: Failure): Error => Object.assign(new Error(f.message), f.code ? { code: f.code } : {})

/** Sample rows for the probe: every input kind the kernel treats specially, and the report's page breaks. */
function probeRows(layout: RowLayout): { inputs: string[][]; indices: number[] } {
  const dates = [
    '2025-01-01T02:59:59.999Z',
    '2018-01-15T12:00:00.000Z',
    '1913-06-01T12:34:56.000Z',
    '2025-02-30T00:00:00.000Z',
    '2025-03-01T09:00:00-03:00',
    'amanhã',
    '',
  ]
  const texts = [
    '=1+1',
    'a;b,c',
    'say "hi"',
    'two\nlines\r',
    "<b>&'x'</b>",
    'João 😀',
    '',
    '+55 11',
    "'q",
    ' -x',
    "Ana,=1+1;@x\t-y\n'z",
  ]
  const width = Math.max(layout.csvCells, ...layout.report.map((c) => Math.max(c.cell, c.raw) + 1), 1)
  const inputs: string[][] = []
  for (let k = 0; k < 8; k++) {
    inputs.push(
      Array.from({ length: width }, (_, i) =>
        layout.dates.includes(i)
          ? (dates[(i + k) % dates.length] as string)
          : (texts[(i * 3 + k) % texts.length] as string),
      ),
    )
  }
  const p = layout.pageRows
  return { inputs, indices: [0, 1, p - 1, p, p + 1, 2 * p, 3, 4] }
}

/** Rows formatted on this thread, written as text to the files. */
function inlineRows(layout: RowLayout, csv: OutFile | null, report: OutFile | null): RowSink {
  const fmt = kernel.rowFormatter(layout)
  let index = 0
  return {
    write(inputs) {
      const [c, h] = fmt(inputs, index++)
      if (c !== '') csv?.write(c)
      if (h !== '') report?.write(h)
    },
    drain: async () => undefined,
    end: () => undefined,
    formattedOn: 'main',
  }
}

/** See the header. `formatOnWorker` false: rows are formatted on the main thread (tests compare both). */
export function createFileWriter(o: { formatOnWorker?: boolean } = {}): FileWriter {
  let worker: Worker
  try {
    worker = new Worker(WORKER_SOURCE(recordsKernel.toString()), { eval: true })
  } catch {
    return inlineFileWriter()
  }
  let seq = 0
  let nextFile = 1
  let inFlight = 0
  let broken: Error | null = null
  const replies = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const fileErrors = new Map<number, Error>()
  const waiting: Array<() => void> = []
  const wake = (): void => {
    for (const w of waiting.splice(0)) w()
  }
  /** Chunks the worker has written and handed back. */
  const spare: Buffer[] = []
  worker.on('message', (m: Reply) => {
    if (m.ack !== undefined) {
      inFlight -= m.ack
      for (const f of m.failed ?? []) if (!fileErrors.has(f.id)) fileErrors.set(f.id, toError(f.error))
      if (m.data?.byteLength === CHUNK && spare.length < SPARE_CHUNKS) spare.push(Buffer.from(m.data))
      if (inFlight <= MAX_IN_FLIGHT / 2) wake()
      return
    }
    const r = replies.get(m.seq ?? -1)
    if (!r) return
    replies.delete(m.seq ?? -1)
    if (m.error) r.reject(toError(m.error))
    else r.resolve(m.result)
  })
  const stop = (e: Error): void => {
    broken ??= e
    for (const r of replies.values()) r.reject(broken)
    replies.clear()
    wake()
  }
  let closing = false
  worker.on('error', stop)
  worker.on('exit', () => {
    if (!closing) stop(new Error('the export writer thread stopped'))
  })
  /** Requests not answered yet: the worker is stopped only once they are (a close may be in its fsync). */
  const unanswered = new Set<Promise<unknown>>()
  const call = <T>(msg: Record<string, unknown>): Promise<T> => {
    const p = new Promise<T>((resolve, reject) => {
      if (broken) return reject(broken)
      const s = ++seq
      replies.set(s, { resolve: resolve as (v: unknown) => void, reject })
      worker.postMessage({ ...msg, seq: s })
    })
    unanswered.add(p)
    const settled = (): void => void unanswered.delete(p)
    p.then(settled, settled)
    return p
  }

  /** Lets acknowledgements in (they are events, and the exporter's loop is synchronous); waits when far behind. */
  const catchUp = async (): Promise<void> => {
    if (broken) throw broken
    if (inFlight > MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve))
    else await new Promise<void>((resolve) => setImmediate(resolve))
    if (broken) throw broken
  }

  /** Text for file `id`, encoded into chunks that go to the worker. */
  const chunkStream = (id: number) => {
    let chunk = spare.pop() ?? Buffer.allocUnsafe(CHUNK)
    let used = 0
    /** Gives `buf`'s whole ArrayBuffer to the worker (it must be ours alone: not a pooled slice). */
    const transfer = (buf: Buffer): void => {
      inFlight += buf.length
      if (broken) return
      const ab = buf.buffer as ArrayBuffer
      worker.postMessage({ op: 'write', id, data: ab, offset: buf.byteOffset, length: buf.length }, [ab])
    }
    return {
      write(s: string): void {
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (s.length * 3 > CHUNK - used) {
          this.send()
          if (s.length * 3 > CHUNK) {
            const own = Buffer.from(new ArrayBuffer(Buffer.byteLength(s, 'utf8')))
            own.write(s, 0, 'utf8')
            transfer(own)
            return
          }
        }
        used += chunk.write(s, used, 'utf8')
      },
      send(): void {
        if (used === 0) return
        transfer(chunk.subarray(0, used))
        chunk = spare.pop() ?? Buffer.allocUnsafe(CHUNK)
        used = 0
      },
      clear(): void {
        used = 0
      },
    }
  }

  const streams = new Map<OutFile, { id: number; send: () => void }>()
  const open = new Set<number>()
  /** Whether the worker's copy of the kernel formats sample rows exactly as this thread's does. */
  const probe = async (layout: RowLayout): Promise<boolean> => {
    if (o.formatOnWorker === false) return false
    const { inputs, indices } = probeRows(layout)
    const fmt = kernel.rowFormatter(layout)
    const expected = inputs.map((x, k) => fmt(x, indices[k] as number))
    try {
      const got = await call<unknown>({ op: 'probe', layout, inputs, indices })
      return JSON.stringify(got) === JSON.stringify(expected)
    } catch {
      return false
    }
  }

  return {
    async create(path, hashed) {
      const id = nextFile++
      await call({ op: 'create', id, path, hashed })
      open.add(id)
      const out = chunkStream(id)
      const check = (): void => {
        const e = fileErrors.get(id)
        if (e) throw e
      }
      const file: OutFile = {
        write: (s) => out.write(s),
        async drain() {
          check()
          await catchUp()
          check()
        },
        async append(p) {
          out.send()
          await call({ op: 'append', id, path: p })
        },
        async close() {
          out.send()
          open.delete(id)
          const w = await call<WrittenFile>({ op: 'close', id })
          check()
          return w
        },
        async abandon() {
          out.clear()
          open.delete(id)
          await call({ op: 'abandon', id }).catch(() => undefined)
        },
      }
      streams.set(file, { id, send: () => out.send() })
      return file
    },
    async rows(layout, csv, report) {
      if (!(await probe(layout))) return inlineRows(layout, csv, report)
      const targets = [csv, report].map((f) => (f ? streams.get(f) : undefined))
      // What the main thread wrote to them (their heads) goes first.
      for (const t of targets) t?.send()
      await call({ op: 'layout', layout, csv: targets[0]?.id ?? 0, html: targets[1]?.id ?? 0 })
      // JSON lines, sent as text: copying a string to a worker is a plain copy for Latin-1 text, where UTF-8
      // would be encoded here and decoded there.
      let lines: string[] = []
      let pending = 0
      const send = (): void => {
        if (lines.length === 0) return
        const text = lines.join('\n')
        lines = []
        pending = 0
        inFlight += text.length
        if (!broken) worker.postMessage({ op: 'rows', text, length: text.length })
      }
      return {
        write(inputs) {
          const line = JSON.stringify(inputs)
          lines.push(line)
          pending += line.length
          if (pending >= ROWS_BATCH) send()
        },
        async drain() {
          // What is gathered goes too: the worker should format while this thread reads on.
          send()
          await catchUp()
        },
        end: send,
        formattedOn: 'worker',
      }
    },
    async close() {
      await Promise.all([...open].map((id) => call({ op: 'abandon', id }).catch(() => undefined)))
      await Promise.allSettled([...unanswered])
      closing = true
      await worker.terminate()
    },
  }
}

/** The same files written on the calling thread (HashedFile): where the worker cannot start. */
function inlineFileWriter(): FileWriter {
  const hasher = createHasher()
  return {
    async create(path, hashed) {
      const f = await HashedFile.create(path, hashed ? hasher : null)
      let full = false
      return {
        write(s) {
          if (f.write(s)) full = true
        },
        async drain() {
          if (full) await f.flush()
          full = false
        },
        async append(p) {
          for await (const chunk of createReadStream(p, { highWaterMark: CHUNK })) {
            await f.writeBuffer(chunk as Buffer)
          }
        },
        close: () => f.close(),
        abandon: () => f.abandon(),
      }
    },
    rows: async (layout, csv, report) => inlineRows(layout, csv, report),
    close: () => hasher.close(),
  }
}
