/**
 * The key-value port the profile service persists through, and its Electron-free file implementation.
 * In the app the store is electron-store (src/main/shell/electron-settings-store.ts); this JSON file store is
 * for tests and a fallback. Neither validates: what is read back is validated with zod by the service.
 */
import { readFileSync } from 'node:fs'
import { errnoCode, moveAside, writeFileAtomic } from '../secrets/atomic-file'

export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
}

export type StoreWarning =
  { code: 'corrupt_file_moved_aside'; movedTo: string } | { code: 'file_unreadable'; errno: string }

export interface FileBackedStore extends KeyValueStore {
  readonly warnings: readonly StoreWarning[]
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** JSON values only, and a private copy: callers can neither smuggle in a function nor mutate our state. */
function jsonCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}

/**
 * One JSON object per file, rewritten atomically on every change. A file that is not a JSON object is moved
 * aside to `<file>.corrupt-<timestamp>` and the store starts empty; a file that cannot be read at all is left
 * alone and every write refused, so nothing we could not read is ever overwritten.
 */
export function createJsonFileStore(file: string, o: { now?: () => Date } = {}): FileBackedStore {
  const now = o.now ?? (() => new Date())
  const warnings: StoreWarning[] = []
  let data: Record<string, unknown> = {}
  let writable = true

  let text: string | null = null
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    const errno = errnoCode(e)
    if (errno !== 'ENOENT') {
      warnings.push({ code: 'file_unreadable', errno })
      writable = false
    }
  }
  if (text !== null) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (isPlainObject(parsed)) {
      data = parsed
    } else {
      try {
        warnings.push({ code: 'corrupt_file_moved_aside', movedTo: moveAside(file, now()) })
      } catch (e) {
        warnings.push({ code: 'file_unreadable', errno: errnoCode(e) })
        writable = false
      }
    }
  }

  function write(next: Record<string, unknown>): void {
    if (!writable) throw new Error('Settings file could not be read earlier; refusing to overwrite it')
    writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o600)
    data = next
  }

  function remove(key: string): void {
    if (!Object.hasOwn(data, key)) return
    const next = { ...data }
    delete next[key]
    write(next)
  }

  return {
    warnings: Object.freeze(warnings),
    get(key) {
      return Object.hasOwn(data, key) ? jsonCopy(data[key]) : undefined
    },
    set(key, value) {
      if (value === undefined) remove(key)
      else write({ ...data, [key]: jsonCopy(value) })
    },
    delete: remove,
  }
}

/**
 * Opens a store whose constructor throws on a file it cannot parse (electron-store does, with a SyntaxError)
 * by moving that file aside once and opening again, so a damaged settings file never stops the app and is
 * never silently overwritten either.
 */
export function openRecoveringStore<T extends KeyValueStore>(
  open: () => T,
  file: string,
  o: { now?: () => Date } = {},
): { store: T; warnings: StoreWarning[] } {
  try {
    return { store: open(), warnings: [] }
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const movedTo = moveAside(file, (o.now ?? (() => new Date()))())
    return { store: open(), warnings: [{ code: 'corrupt_file_moved_aside', movedTo }] }
  }
}
