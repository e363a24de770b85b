/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, `undefined` members dropped (as
 * JSON.stringify does). The audit hash is computed over this form, so a row's hash does not depend on how a
 * caller happened to order keys, and a verifier in another language can reproduce it.
 *
 * Speed matters: the state hash of every record is most of the start-up check, of an export and of its
 * verification. A part of the value that is already in canonical order (every object's members sorted, as in a
 * record read back from canonical text or from the ledger's canonical columns) is written by JSON.stringify in one
 * native call; only the objects out of order are written member by member here. `reference`-style writing of
 * the whole value (the definition, `write` below) stays for what JSON.stringify writes differently: toJSON called
 * with a key, non-plain objects (a boxed string), array holes.
 */
export function canonicalJson(value: unknown): string {
  const out = text(value, null)
  if (out === undefined) throw new TypeError('canonicalJson: value is not serialisable')
  return out
}

/**
 * canonicalJson of the object without its own member `key` (a record's state: ledger/model/state-hash.ts), without
 * copying it first.
 */
export function canonicalJsonWithout(value: object, key: string): string {
  const out = text(value, key)
  if (out === undefined) throw new TypeError('canonicalJson: value is not serialisable')
  return out
}

/**
 * True when JSON.stringify(v) is canonicalJson(v): every object plain and already in canonical order, every
 * number finite. A value parsed from canonical text is (unless it holds array-index keys, which JavaScript lists
 * first in numeric order: "9" before "10").
 */
export function writtenAsIs(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) {
    return typeof v === 'number' ? Number.isFinite(v) : typeof v !== 'bigint'
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      // A hole: JSON.stringify writes null, the definition (Array.prototype.map) nothing.
      if (!(i in v)) return false
      const x: unknown = v[i]
      if (typeof x === 'object' && x !== null ? !writtenAsIs(x) : !primitiveAsIs(x)) return false
    }
    return true
  }
  const proto: unknown = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) return false
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  // Order first (cheap, and where an object from the ledger's row usually fails), then the members.
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return false
  for (const k of keys) {
    const x = o[k]
    if (typeof x === 'object' && x !== null ? !writtenAsIs(x) : !primitiveAsIs(x)) return false
  }
  return true
}

function primitiveAsIs(x: unknown): boolean {
  return typeof x === 'number' ? Number.isFinite(x) : typeof x !== 'bigint'
}

/** An object's member names in canonical order, each with its `"name":` text. */
interface Order {
  keys: string[]
  sorted: string[]
  heads: string[]
}

/**
 * The last few key lists met, sorted: records of one kind list their members in the same order (a record, its
 * request, its references…), so the sort and the names' JSON are done once per shape, not once per object.
 */
const orders: Order[] = []
let nextOrder = 0

function orderOf(o: object): Order {
  const keys = Object.keys(o)
  const n = keys.length
  for (const c of orders) {
    if (c.keys.length !== n) continue
    let same = true
    for (let i = 0; i < n; i++) {
      if (keys[i] !== c.keys[i]) {
        same = false
        break
      }
    }
    if (same) return c
  }
  const sorted = [...keys].sort()
  const order = { keys, sorted, heads: sorted.map((k) => `${JSON.stringify(k)}:`) }
  orders[nextOrder] = order
  nextOrder = (nextOrder + 1) % 8
  return order
}

function text(v: unknown, omit: string | null): string | undefined {
  if (typeof v !== 'object' || v === null) return write(v)
  if (omit !== null) {
    // The definition of "without": the rest of its own members (a toJSON among them is then called).
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function' || Array.isArray(v)) {
      const { [omit]: _left, ...rest } = v as Record<string, unknown>
      return text(rest, null)
    }
  } else if (writtenAsIs(v)) return JSON.stringify(v)
  const withJson = v as { toJSON?: () => unknown }
  if (typeof withJson.toJSON === 'function') return text(withJson.toJSON(), null)
  if (Array.isArray(v)) return `[${v.map((x) => text(x, null) ?? 'null').join(',')}]`
  const o = v as Record<string, unknown>
  const { sorted, heads } = orderOf(o)
  let out = '{'
  for (let i = 0; i < sorted.length; i++) {
    const key = sorted[i]!
    if (key === omit) continue
    const x = o[key]
    const item = typeof x === 'object' && x !== null ? text(x, null) : write(x)
    if (item !== undefined) out += out.length === 1 ? heads[i]! + item : `,${heads[i]!}${item}`
  }
  return `${out}}`
}

/** A primitive, as the definition writes it (objects go through `text`). */
function write(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v)
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number')
      // What JSON.stringify writes for a finite number (-0 included: "0"), without the call.
      return String(v)
    case 'boolean':
      return v ? 'true' : 'false'
    case 'bigint':
      throw new TypeError('canonicalJson: bigint is not JSON')
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    default:
      return 'null'
  }
}
