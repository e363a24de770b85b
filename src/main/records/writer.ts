/**
 * An output file that is hashed as it is written (no second read of 100 MB to hash it), encoded into 1 MiB
 * chunks, created exclusively ('wx': an existing file is never overwritten) and fsynced on close.
 *
 * Hashing runs on a worker thread (`createHasher`): chunks are copied to the worker in order, so its digest is
 * the file's SHA-256. Where a worker cannot start, the same hash runs inline.
 *
 * The exporter writes through output.ts (encoding, writing, hashing and row formatting with one worker thread);
 * HashedFile is its fallback where that worker cannot start.
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'

export const CHUNK = 1 << 20

export interface WrittenFile {
  bytes: number
  sha256: string
}

/** SHA-256 of several byte streams, identified by `id`. */
export interface Hasher {
  /** `owned`: the caller gives `data`'s whole ArrayBuffer away (it must not touch it again). */
  update(id: number, data: Buffer, owned?: boolean): void
  digest(id: number): Promise<string>
  close(): Promise<void>
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
const hashes = new Map()
parentPort.on('message', (m) => {
  let h = hashes.get(m.id)
  if (!h) hashes.set(m.id, (h = createHash('sha256')))
  if (m.data) h.update(new Uint8Array(m.data, m.offset, m.length))
  else {
    hashes.delete(m.id)
    parentPort.postMessage({ id: m.id, hex: h.digest('hex') })
  }
})
`

function inlineHasher(): Hasher {
  const hashes = new Map<number, Hash>()
  const get = (id: number): Hash => {
    let h = hashes.get(id)
    if (!h) hashes.set(id, (h = createHash('sha256')))
    return h
  }
  return {
    update: (id, data) => void get(id).update(data),
    digest: async (id) => {
      const hex = get(id).digest('hex')
      hashes.delete(id)
      return hex
    },
    close: async () => undefined,
  }
}

export function createHasher(): Hasher {
  let worker: Worker
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true })
  } catch {
    return inlineHasher()
  }
  const waiting = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>()
  let failure: Error | null = null
  worker.on('message', (m: { id: number; hex: string }) => {
    waiting.get(m.id)?.resolve(m.hex)
    waiting.delete(m.id)
  })
  worker.on('error', (e) => {
    failure = e
    for (const w of waiting.values()) w.reject(e)
    waiting.clear()
  })
  return {
    // An owned chunk is transferred (no copy); anything else is copied, since it may share a pooled buffer.
    update: (id, data, owned) => {
      if (owned) {
        const ab = data.buffer as ArrayBuffer
        worker.postMessage({ id, data: ab, offset: data.byteOffset, length: data.length }, [ab])
      } else {
        const copy = new Uint8Array(data)
        worker.postMessage({ id, data: copy.buffer, offset: 0, length: copy.length }, [copy.buffer])
      }
    },
    digest: (id) =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure)
        waiting.set(id, { resolve, reject })
        worker.postMessage({ id })
      }),
    close: async () => {
      await worker.terminate()
    },
  }
}

let nextId = 1

export class HashedFile {
  // Each string is encoded straight into a 1 MiB chunk (no joined string); full chunks wait in `ready`.
  private chunk = Buffer.allocUnsafe(CHUNK)
  private used = 0
  /** Encoded bytes waiting for flush(); `owned`: a chunk of ours whose ArrayBuffer may be given away. */
  private ready: Array<{ buf: Buffer; owned: boolean }> = []
  private bytes = 0
  private readonly id = nextId++

  private constructor(
    private readonly fh: FileHandle,
    private readonly hasher: Hasher | null,
  ) {}

  /** `hasher` null: a scratch file, not hashed. */
  static async create(path: string, hasher: Hasher | null): Promise<HashedFile> {
    return new HashedFile(await open(path, 'wx'), hasher)
  }

  /** Buffers `s`; true when full chunks are waiting and the caller should `flush()`. */
  write(s: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (s.length * 3 > CHUNK - this.used) {
      this.retire()
      if (s.length * 3 > CHUNK) {
        this.ready.push({ buf: Buffer.from(s, 'utf8'), owned: false })
        return true
      }
    }
    this.used += this.chunk.write(s, this.used, 'utf8')
    return this.ready.length > 0
  }

  /** Moves the current chunk, if it holds anything, to `ready` and starts a new one. */
  private retire(): void {
    if (this.used === 0) return
    this.ready.push({ buf: this.chunk.subarray(0, this.used), owned: true })
    this.chunk = Buffer.allocUnsafe(CHUNK)
    this.used = 0
  }

  async writeBuffer(buf: Buffer): Promise<void> {
    await this.flush()
    await this.put(buf, false)
  }

  async flush(): Promise<void> {
    this.retire()
    for (const { buf, owned } of this.ready.splice(0)) await this.put(buf, owned)
  }

  /** Writes, then hashes (a transferred buffer is unusable afterwards, so the write must be done). */
  private async put(buf: Buffer, owned: boolean): Promise<void> {
    this.bytes += buf.length
    let off = 0
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off)
      off += bytesWritten
    }
    this.hasher?.update(this.id, buf, owned)
  }

  async close(): Promise<WrittenFile> {
    try {
      await this.flush()
      await this.fh.sync()
    } finally {
      await this.fh.close()
    }
    return { bytes: this.bytes, sha256: this.hasher ? await this.hasher.digest(this.id) : '' }
  }

  /** Closes without flushing, after a failure. */
  async abandon(): Promise<void> {
    this.used = 0
    this.ready = []
    await this.fh.close().catch(() => undefined)
  }
}
