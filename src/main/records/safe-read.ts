/**
 * Reading an export folder that may be hostile (verify.ts: the CLI, and the app's offline review through it).
 * The folder and every name in it are attacker-controlled: a link may point anywhere (`records.csv →
 * /etc/passwd`), `manifest.json` may be a FIFO that blocks an open forever or `/dev/zero` that never ends, a
 * manifest may name files by the thousand or claim any size. So:
 *
 * - every file is opened with O_NOFOLLOW (a link as the last component fails: it is never followed) and
 *   O_NONBLOCK (opening a FIFO returns at once instead of waiting for a writer), then `fstat` on that very handle
 *   must say regular file; nothing is read from anything else;
 * - sizes come from that `fstat`, are capped, and are compared with what the caller expects before a byte is read;
 *   exactly that many bytes are read, and a file that grows or shrinks meanwhile is refused, not read on;
 * - data files are read in chunks (readChunks) and checked as they stream: memory stays bounded whatever their
 *   size (HELD_MAX_BYTES is the most any checker holds: a line, a row, a member it reads whole);
 * - a folder that is itself a link is refused (`checkFolder`), and listing a folder stops after a bound.
 *
 * Windows has neither flag (fs.constants leaves them undefined): there an lstat first refuses links and anything
 * not a regular file, which leaves a window between the check and the open that only a local attacker racing the
 * verifier could use. The same holds for the folder everywhere (Node has no openat): it is checked, then its
 * entries are opened by path.
 */
import { constants, type Stats } from 'node:fs'
import { lstat, open, opendir, type FileHandle } from 'node:fs/promises'
import { ANCHORS_FILE, ANCHORS_MAX_BYTES } from './anchors'

/** A manifest is a few KiB; 1 MiB leaves room for any filter and totals, and bounds what is parsed. */
export const MANIFEST_MAX_BYTES = 1 << 20
/**
 * A data file: 16 GiB (records.json of 1,000,000 records is 1.8 GB). The verifier streams data files (issue #30),
 * so this bounds the time a hostile manifest can make it spend, not its memory.
 */
export const DATA_FILE_MAX_BYTES = 2 ** 34
/**
 * The most a verifier holds of one member at once: a line of records.json or audit.jsonl, a CSV row, or a
 * member only read whole (a wallet statement).
 */
export const HELD_MAX_BYTES = 128 << 20
/** The bytes read at a time from a streamed member. */
export const CHUNK_BYTES = 4 << 20
/**
 * The most a verifier reads of a listed member named `name`: anchors.jsonl (anchors.ts), under that exact name
 * only, is small by nature and capped far lower than a data file.
 */
export function memberMaxBytes(name: string): number {
  return name === ANCHORS_FILE ? ANCHORS_MAX_BYTES : DATA_FILE_MAX_BYTES
}
/** The manifest nests 4 levels deep; anything beyond this is refused before JSON.parse. */
export const MANIFEST_MAX_DEPTH = 16
/** Unlisted names returned at most, and folder entries looked at at most. */
export const UNLISTED_MAX = 100
const FOLDER_SCAN_MAX = 10_000

const NOFOLLOW: number | undefined = constants.O_NOFOLLOW
const NONBLOCK: number | undefined = constants.O_NONBLOCK
const OPEN_FLAGS = constants.O_RDONLY | (NOFOLLOW ?? 0) | (NONBLOCK ?? 0)

/** Why a path was not read: `missing` (not there), `unsafe` (a link, not a regular file), `size` (too large,
 * or not the size expected), `unreadable` (an I/O error, or it changed while read). */
export type RefusalKind = 'missing' | 'unsafe' | 'size' | 'unreadable'

export interface Refusal {
  kind: RefusalKind
  /** English, precise, for a verification problem. */
  detail: string
}

export type SafeRead = { buf: Buffer } | { refused: Refusal }

const refuse = (kind: RefusalKind, detail: string): { refused: Refusal } => ({ refused: { kind, detail } })

function whatIs(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link (links are not followed)'
  if (st.isDirectory()) return 'a folder'
  if (st.isFIFO()) return 'a named pipe (FIFO)'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  if (st.isSocket()) return 'a socket'
  return 'not a regular file'
}

function openError(e: unknown): { refused: Refusal } {
  const code = (e as NodeJS.ErrnoException).code
  // ELOOP: Linux and macOS for O_NOFOLLOW on a link; EMLINK: FreeBSD; EFTYPE: some BSDs.
  if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') {
    return refuse('unsafe', 'is a symbolic link (links are not followed)')
  }
  if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', 'does not exist')
  return refuse('unreadable', `cannot be opened (${code ?? (e as Error).message})`)
}

export interface ReadOptions {
  /** Larger files are refused unread. */
  maxBytes: number
  /** When given, a file of another size is refused unread (`size`). */
  expectBytes?: number
}

/** An open regular file of a checked size (openChecked); read it with readChunks, then close it. */
export interface CheckedFile {
  fh: FileHandle
  size: number
}

/**
 * The regular file at `path` (see the header), opened never through a link and never blocking, its size checked
 * before a byte is read; or why not.
 */
export async function openChecked(path: string, o: ReadOptions): Promise<CheckedFile | { refused: Refusal }> {
  if (NOFOLLOW === undefined) {
    try {
      const st = await lstat(path)
      if (!st.isFile()) return refuse('unsafe', `is ${whatIs(st)}, not a regular file`)
    } catch (e) {
      return openError(e)
    }
  }
  let fh: FileHandle
  try {
    fh = await open(path, OPEN_FLAGS)
  } catch (e) {
    return openError(e)
  }
  let st: Stats
  try {
    st = await fh.stat()
  } catch (e) {
    await fh.close()
    return openError(e)
  }
  const size = st.size
  const why = !st.isFile()
    ? refuse('unsafe', `is ${whatIs(st)}, not a regular file`)
    : size > o.maxBytes
      ? refuse('size', `is ${size} bytes, more than the ${o.maxBytes} a verifier reads`)
      : o.expectBytes !== undefined && size !== o.expectBytes
        ? refuse('size', `${size} bytes, manifest says ${o.expectBytes} (not read)`)
        : null
  if (why === null) return { fh, size }
  await fh.close()
  return why
}

/**
 * Reads exactly the file's `size` bytes in order, `chunkBytes` at a time (the next chunk is read while `onChunk`
 * works on this one), and refuses a file that grows or shrinks meanwhile. Null when read to the end; never throws
 * an I/O error (`onChunk`'s own errors propagate). Does not close the file.
 *
 * `reuse`: three buffers take turns (no allocation per chunk), so a chunk's bytes are only good until the
 * chunk after the next one is passed on.
 */
export async function readChunks(
  file: CheckedFile,
  chunkBytes: number,
  onChunk: (chunk: Buffer) => void,
  reuse = false,
): Promise<Refusal | null> {
  const { fh, size } = file
  const failed = (e: unknown): Refusal => ({
    kind: 'unreadable',
    detail: `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
  })
  // One chunk: filled by as many reads as it takes; short only at the end of the file.
  const pool: Buffer[] = []
  let turn = 0
  const chunkAt = async (pos: number, len: number): Promise<Buffer> => {
    // Not zero-filled: exactly what was read is passed on, and a short read refuses the file.
    const k = turn++ % 3
    const buf = reuse
      ? (pool[k] ??= Buffer.allocUnsafeSlow(len)).subarray(0, len)
      : Buffer.allocUnsafeSlow(len)
    let off = 0
    while (off < len) {
      const { bytesRead } = await fh.read(buf, off, len - off, pos + off)
      if (bytesRead === 0) break
      off += bytesRead
    }
    return off === len ? buf : buf.subarray(0, off)
  }
  const step = Math.max(1, Math.min(chunkBytes, 1 << 30))
  let pos = 0
  let next: Promise<Buffer> | null = size > 0 ? chunkAt(0, Math.min(step, size)) : null
  try {
    while (next) {
      const chunk = await next
      const expected = Math.min(step, size - pos)
      if (chunk.length < expected) return { kind: 'unreadable', detail: 'changed size while being read' }
      pos += chunk.length
      next = pos < size ? chunkAt(pos, Math.min(step, size - pos)) : null
      // A read in flight is awaited (caught) before an error in onChunk leaves, so nothing is left dangling.
      try {
        onChunk(chunk)
      } catch (e) {
        await next?.catch(() => undefined)
        throw e
      }
    }
    const more = await fh.read(Buffer.alloc(1), 0, 1, size)
    return more.bytesRead > 0 ? { kind: 'unreadable', detail: 'changed size while being read' } : null
  } catch (e) {
    if (e instanceof Error && 'code' in e) return failed(e)
    throw e
  }
}

/** The bytes of the regular file at `path` (see the header), or why it was refused. Never throws. */
export async function readRegularFile(path: string, o: ReadOptions): Promise<SafeRead> {
  const file = await openChecked(path, o)
  if ('refused' in file) return file
  try {
    const chunks: Buffer[] = []
    const refused = await readChunks(file, file.size, (chunk) => chunks.push(chunk))
    return refused ? { refused } : { buf: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }
  } catch (e) {
    return refuse('unreadable', `cannot be read (${(e as Error).message})`)
  } finally {
    await file.fh.close()
  }
}

/** What a path given as an export is: a folder, a file, or refused (a link, missing). Never follows a link. */
export async function pathKind(path: string): Promise<'folder' | 'file' | { refused: Refusal }> {
  try {
    const st = await lstat(path)
    if (st.isSymbolicLink()) return refuse('unsafe', 'is a symbolic link (links are not followed)')
    return st.isDirectory() ? 'folder' : 'file'
  } catch (e) {
    return openError(e)
  }
}

/**
 * The names in `dir` that `known` does not hold, sorted: at most UNLISTED_MAX of them, looking at no more than
 * FOLDER_SCAN_MAX entries; `more` counts the names left out (a lower bound when the scan stopped early).
 */
export async function otherNames(
  dir: string,
  known: ReadonlySet<string>,
): Promise<{ names: string[]; more: number; stopped: boolean }> {
  const names: string[] = []
  let seen = 0
  let stopped = false
  try {
    const d = await opendir(dir)
    try {
      for (let e = await d.read(); e !== null; e = await d.read()) {
        if (++seen > FOLDER_SCAN_MAX) {
          stopped = true
          break
        }
        if (!known.has(e.name)) names.push(e.name)
      }
    } finally {
      await d.close()
    }
  } catch {
    // An unreadable folder: its files are reported as missing by whoever reads them.
  }
  names.sort()
  return { names: names.slice(0, UNLISTED_MAX), more: Math.max(0, names.length - UNLISTED_MAX), stopped }
}

/**
 * The position (UTF-16 index) where `text` first nests JSON arrays and objects deeper than `max`, or -1. A plain
 * scan (brackets in strings skipped), so a 200,000-deep document is refused before anything recurses over it.
 */
export function jsonTooDeepAt(text: string, max: number): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i += 1
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i
    } else if (c === 0x5d || c === 0x7d) depth -= 1
  }
  return -1
}
