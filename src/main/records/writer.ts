/**
 * An output file that is hashed as it is written (no second read of 100 MB to hash it): text is encoded into
 * 1 MiB chunks, each written and then hashed; created exclusively ('wx': an existing file is never overwritten)
 * and, when hashed, fsynced on close.
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'

export const CHUNK = 1 << 20

export interface WrittenFile {
  bytes: number
  sha256: string
}

export class HashedFile {
  // Each string is encoded straight into a 1 MiB chunk (no joined string); full chunks wait in `ready`.
  private chunk: Buffer = Buffer.allocUnsafe(CHUNK)
  private used = 0
  /** Encoded bytes waiting for flush(). */
  private ready: Buffer[] = []
  /** Chunks written, for reuse (fresh memory costs a page fault per 4 KiB). */
  private spare: Buffer[] = []
  private bytes = 0

  private constructor(
    private readonly fh: FileHandle,
    private readonly hash: Hash | null,
    /** The file's name in its folder. */
    readonly name: string,
  ) {}

  /** `hashed` false: a scratch file, neither hashed nor fsynced. */
  static async create(path: string, hashed: boolean): Promise<HashedFile> {
    return new HashedFile(await open(path, 'wx'), hashed ? createHash('sha256') : null, basename(path))
  }

  /** Buffers `s`; full chunks wait for `drain()`. */
  write(s: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (s.length * 3 > CHUNK - this.used) {
      this.retire()
      if (s.length * 3 > CHUNK) {
        this.ready.push(Buffer.from(s, 'utf8'))
        return
      }
    }
    this.used += this.chunk.write(s, this.used, 'utf8')
  }

  /** Moves the current chunk, if it holds anything, to `ready` and starts another. */
  private retire(): void {
    if (this.used === 0) return
    this.ready.push(this.chunk.subarray(0, this.used))
    this.chunk = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK)
    this.used = 0
  }

  /** Bytes written and waiting so far. */
  get size(): number {
    return this.bytes + this.used + this.ready.reduce((n, b) => n + b.length, 0)
  }

  /** Writes what is waiting; call it every few thousand writes (also where a failed write is reported). */
  async drain(): Promise<void> {
    if (this.ready.length > 0) await this.flush()
  }

  /** Appends another file's bytes through one buffer (a stream's fresh chunks held 80 MB until a GC at 1M). */
  async append(path: string): Promise<void> {
    await this.flush()
    const from = await open(path, 'r')
    try {
      for (;;) {
        const { bytesRead } = await from.read(this.chunk, 0, CHUNK, null)
        if (bytesRead === 0) break
        await this.put(this.chunk.subarray(0, bytesRead))
      }
    } finally {
      await from.close()
    }
  }

  private async flush(): Promise<void> {
    this.retire()
    for (const buf of this.ready.splice(0)) {
      await this.put(buf)
      if (buf.buffer.byteLength === CHUNK && this.spare.length < 4) this.spare.push(Buffer.from(buf.buffer))
    }
  }

  private async put(buf: Buffer): Promise<void> {
    this.bytes += buf.length
    let off = 0
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off)
      off += bytesWritten
    }
    this.hash?.update(buf)
  }

  async close(): Promise<WrittenFile> {
    try {
      await this.flush()
      if (this.hash) await this.fh.sync()
    } finally {
      await this.fh.close()
    }
    return { bytes: this.bytes, sha256: this.hash ? this.hash.digest('hex') : '' }
  }

  /** Closes without flushing, after a failure. */
  async abandon(): Promise<void> {
    this.used = 0
    this.ready = []
    await this.fh.close().catch(() => undefined)
  }
}
