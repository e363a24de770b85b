/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, `undefined` members dropped (as
 * JSON.stringify does). The audit hash is computed over this form, so a row's hash does not depend on how a
 * caller happened to order keys, and a verifier in another language can reproduce it.
 *
 * Written by JSON.stringify (native, several times faster than building the text in JavaScript: the state hash
 * of 100k records is the bulk of the start-up check and of an export's verification) over the value itself when
 * every object in it already lists its members in that order — a record read back from canonical text does —
 * and otherwise over a copy whose objects are rebuilt in that order. The one thing a rebuilt object cannot do
 * is list array-index keys ("10", "9") in code-unit order (JavaScript enumerates them numerically first); a value
 * with such an object out of order is written member by member (`write`), the definition this module always had
 * and the tests compare the fast path with.
 */
export function canonicalJson(value: unknown): string {
  let out: string | undefined
  try {
    out = JSON.stringify(inOrder(value))
  } catch (e) {
    if (e !== SLOW) throw e
    out = write(value)
  }
  if (out === undefined) throw new TypeError('canonicalJson: value is not serialisable')
  return out
}

/**
 * True when JSON.stringify(v) is canonicalJson(v): every object plain and already in canonical order, every
 * number finite. A value parsed from canonical text is (unless it holds array-index keys out of numeric order).
 */
export function writtenAsIs(v: unknown): boolean {
  try {
    return inOrder(v) === v
  } catch {
    return false
  }
}

/** Thrown by inOrder where only `write` gives the canonical text; caught by canonicalJson. */
const SLOW = new Error('canonicalJson: written member by member')

/** "0", "7", "4294967294": keys JavaScript enumerates before all others, in numeric order. */
function isIndexKey(k: string): boolean {
  const c = k.charCodeAt(0)
  if (c < 48 || c > 57) return false
  return /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295
}

/**
 * `v` itself when JSON.stringify already writes it canonically, else a copy that it does. Throws what `write`
 * throws (non-finite number, bigint), and SLOW where only `write` can do it: array-index keys out of code-unit
 * order, and objects that are not plain (JSON.stringify writes a boxed string as a string, `write` as an object).
 */
function inOrder(v: unknown): unknown {
  if (v === null) return v
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number')
      return v
    case 'bigint':
      throw new TypeError('canonicalJson: bigint is not JSON')
    case 'object':
      break
    default:
      // Strings, booleans; undefined, functions and symbols are left for JSON.stringify to drop (or write as
      // null in an array), as `write` does.
      return v
  }
  const withJson = v as { toJSON?: () => unknown }
  // Resolved here: JSON.stringify would call it with the member's name, `write` calls it without.
  if (typeof withJson.toJSON === 'function') return inOrder(withJson.toJSON())
  if (Array.isArray(v)) {
    let copy: unknown[] | null = null
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i]
      const y = inOrder(x)
      if (y !== x && copy === null) copy = v.slice(0, i)
      copy?.push(y)
    }
    return copy ?? v
  }
  const proto: unknown = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) throw SLOW
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  let sorted = true
  for (let i = 1; i < keys.length; i++) {
    if (!(keys[i - 1]! < keys[i]!)) {
      sorted = false
      break
    }
  }
  let values: unknown[] | null = null
  for (let i = 0; i < keys.length; i++) {
    const x = o[keys[i]!]
    const y = inOrder(x)
    if (y !== x && values === null) values = keys.slice(0, i).map((k) => o[k])
    values?.push(y)
  }
  if (sorted && values === null) return v
  if (!sorted && keys.some(isIndexKey)) throw SLOW
  const order = keys.map((k, i) => i)
  if (!sorted) order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1))
  const out: Record<string, unknown> = {}
  for (const i of order) {
    const k = keys[i]!
    const x = values ? values[i] : o[k]
    // A "__proto__" member (parsed JSON can have one) stays a member, never the copy's prototype.
    if (k === '__proto__') {
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true })
    } else out[k] = x
  }
  return out
}

function write(v: unknown): string | undefined {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return JSON.stringify(v)
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number')
      return JSON.stringify(v)
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    case 'bigint':
      throw new TypeError('canonicalJson: bigint is not JSON')
    case 'object': {
      const withJson = v as { toJSON?: () => unknown }
      if (typeof withJson.toJSON === 'function') return write(withJson.toJSON())
      if (Array.isArray(v)) return `[${v.map((x) => write(x) ?? 'null').join(',')}]`
      const parts: string[] = []
      for (const key of Object.keys(v).sort()) {
        const item = write((v as Record<string, unknown>)[key])
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`)
      }
      return `{${parts.join(',')}}`
    }
  }
}
