/**
 * Small file primitives shared by the vault and the JSON settings store. Electron-free.
 */
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'

/**
 * Replaces `file` so that a reader (or a crash) sees either the old content or the new, never a torn file. The
 * temp file is created with `mode` from the start: a secret-bearing file must not be world-readable even for
 * the instant between create and chmod.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`
  let fd: number | null = openSync(tmp, 'wx', mode)
  try {
    writeFileSync(fd, data)
    fsyncSync(fd)
    closeSync(fd)
    fd = null
    renameSync(tmp, file)
  } catch (e) {
    if (fd !== null) closeSync(fd)
    try {
      unlinkSync(tmp)
    } catch {
      // Already renamed or never created: nothing to clean.
    }
    throw e
  }
  // The umask may have narrowed `mode` but never widened it; an older file may have been created looser.
  try {
    chmodSync(file, mode)
  } catch {
    // Windows has no POSIX modes; the file lives in the per-user profile directory there.
  }
  fsyncDir(dir)
}

/** The rename is durable only once the directory entry is; POSIX only (Windows cannot open a directory). */
function fsyncDir(dir: string): void {
  let fd: number | null = null
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Best effort.
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** `2024-05-01T12-30-00-000Z`: sortable, and legal in file names on every platform (no `:`). */
export function fileTimestamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-')
}

/**
 * Renames an unreadable file to `<file>.corrupt-<timestamp>` so the next write cannot destroy what someone may
 * still want to recover. Returns the new path; throws if the rename fails (the caller must then not write).
 */
export function moveAside(file: string, now: Date): string {
  const base = `${file}.corrupt-${fileTimestamp(now)}`
  let target = base
  for (let n = 1; existsSync(target); n += 1) target = `${base}-${n}`
  renameSync(file, target)
  return target
}

/** The `code` of a Node system error, for messages that must name the failure but not echo anything else. */
export function errnoCode(e: unknown): string {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined
  return typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? code : 'unknown'
}
