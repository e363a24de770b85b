/**
 * What the verifier keeps per record and per audit entry (issue #30: 1,000,000 records verified in bounded
 * memory), as bytes in growable typed arrays instead of strings in Maps: a SHA-256 is 32 bytes (a hex string in a
 * Map entry costs ~130), a localId is its bytes once, and a record that hashes to its latest entry's state keeps
 * one byte saying so. Read through the Map methods their readers use (get, has, size, iteration), so a plain Map
 * may stand in for them where none of this is at stake (tests, --against's fixed hashes).
 *
 * Exact, never lossy: a value that is not a lowercase SHA-256 in hex, and seqs that do not come in increasing
 * order (a tampered member, which fails anyway), fall back to a Map.
 */

/** What the tables' readers ask of them; a Map satisfies it. */
export interface Table<K, V> {
  get(key: K): V | undefined
  has(key: K): boolean
  readonly size: number
  keys(): Iterable<K>
  values(): Iterable<V>
  [Symbol.iterator](): Iterator<[K, V]>
}

type Grown = Uint8Array | Int32Array | Uint32Array | Float64Array
function grown<T extends Grown>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a
  const b = make(Math.max(need, a.length * 2))
  b.set(a)
  return b
}

abstract class MapLike<K, V> implements Table<K, V> {
  abstract get(key: K): V | undefined
  abstract get size(): number
  abstract entries(): Generator<[K, V]>
  has(key: K): boolean {
    return this.get(key) !== undefined
  }
  *keys(): Generator<K> {
    for (const [k] of this.entries()) yield k
  }
  *values(): Generator<V> {
    for (const [, v] of this.entries()) yield v
  }
  [Symbol.iterator](): Iterator<[K, V]> {
    return this.entries()
  }
}

/** A hex digit's value by character code (lowercase only), else -1. */
const NIBBLE = new Int8Array(128).fill(-1)
for (let c = 0; c < 16; c++) NIBBLE['0123456789abcdef'.charCodeAt(c)] = c

/** Hex SHA-256 strings by index, 32 bytes each; any other string in a Map. */
class HashColumn {
  private bytes = Buffer.alloc(32 << 10)
  /** 0: none, 1: in `bytes`, 2: in `odd`. */
  private kind = new Uint8Array(1 << 10)
  private readonly odd = new Map<number, string>()

  set(i: number, value: string): void {
    this.kind = grown(this.kind, i + 1, (n) => new Uint8Array(n))
    this.bytes = grown(this.bytes, (i + 1) * 32, Buffer.alloc)
    // Decoded here, not by Buffer.write: a native call per hash costs more than the 64 digits.
    let ok = value.length === 64
    for (let k = 0; ok && k < 32; k++) {
      const hi = NIBBLE[value.charCodeAt(2 * k)] ?? -1
      const lo = NIBBLE[value.charCodeAt(2 * k + 1)] ?? -1
      if (hi < 0 || lo < 0) ok = false
      else this.bytes[i * 32 + k] = (hi << 4) | lo
    }
    if (ok) {
      if (this.kind[i] === 2) this.odd.delete(i)
      this.kind[i] = 1
    } else {
      this.odd.set(i, value)
      this.kind[i] = 2
    }
  }

  has(i: number): boolean {
    return (this.kind[i] ?? 0) !== 0
  }

  get(i: number): string | undefined {
    const k = this.kind[i]
    return k === 1 ? this.bytes.toString('hex', i * 32, i * 32 + 32) : k === 2 ? this.odd.get(i) : undefined
  }

  /** get(i) === value, without making the string (once per record). */
  is(i: number, value: string): boolean {
    const k = this.kind[i]
    if (k !== 1) return k === 2 && this.odd.get(i) === value
    if (value.length !== 64) return false
    for (let b = 0; b < 32; b++) {
      const hi = NIBBLE[value.charCodeAt(2 * b)] ?? -1
      const lo = NIBBLE[value.charCodeAt(2 * b + 1)] ?? -1
      if (hi < 0 || lo < 0 || this.bytes[i * 32 + b] !== ((hi << 4) | lo)) return false
    }
    return true
  }
}

/**
 * localIds ↔ dense indexes, each id's characters kept once: a byte each when all are below 256 (ids are ASCII),
 * else two (UTF-16, exact for any string), after a tag byte saying which; found through an open-addressing
 * table of their FNV-1a hashes. Plain loops over the characters: no encoding call per id.
 */
export class IdTable {
  private bytes = Buffer.alloc(1 << 16)
  /** Where each id's tag byte is, and where the next one's would be. */
  private starts = new Int32Array(1 << 10)
  /** Index + 1 of the id in each slot; 0: empty. Kept at most half full. */
  private slots = new Int32Array(1 << 11)
  size = 0
  /** The last id found and its index: a record and its entries ask for the same string several times in a row. */
  private last = ''
  private lastAt = -1

  /** The index of `id`, added when `add` and not there yet; -1 when it is not there. */
  find(id: string, add = false): number {
    if (id === this.last && this.lastAt >= 0) return this.lastAt
    this.last = id
    this.lastAt = this.search(id, add)
    return this.lastAt
  }

  private search(id: string, add: boolean): number {
    let h = 0x811c9dc5
    let wide = 0
    for (let k = 0; k < id.length; k++) {
      const c = id.charCodeAt(k)
      wide |= c
      h = Math.imul(h ^ c, 0x01000193)
    }
    const tag = wide > 0xff ? 2 : 1
    const mask = this.slots.length - 1
    let s = (h >>> 0) & mask
    for (let i = (this.slots[s] as number) - 1; i >= 0; i = (this.slots[s] as number) - 1) {
      if (this.is(i, id, tag)) return i
      s = (s + 1) & mask
    }
    if (!add) return -1
    const at = this.starts[this.size] as number
    this.bytes = grown(this.bytes, at + 1 + id.length * tag, Buffer.alloc)
    this.bytes[at] = tag
    for (let k = 0; k < id.length; k++) {
      const c = id.charCodeAt(k)
      if (tag === 1) this.bytes[at + 1 + k] = c
      else this.bytes.writeUInt16LE(c, at + 1 + 2 * k)
    }
    this.starts = grown(this.starts, this.size + 2, (n) => new Int32Array(n))
    this.starts[this.size + 1] = at + 1 + id.length * tag
    this.slots[s] = ++this.size
    if (this.size * 2 > this.slots.length) this.rehash()
    return this.size - 1
  }

  private is(i: number, id: string, tag: number): boolean {
    const at = this.starts[i] as number
    if (this.bytes[at] !== tag || (this.starts[i + 1] as number) - at - 1 !== id.length * tag) return false
    for (let k = 0; k < id.length; k++) {
      const c = tag === 1 ? this.bytes[at + 1 + k] : this.bytes.readUInt16LE(at + 1 + 2 * k)
      if (c !== id.charCodeAt(k)) return false
    }
    return true
  }

  id(i: number): string {
    const at = this.starts[i] as number
    return this.bytes.toString(this.bytes[at] === 1 ? 'latin1' : 'utf16le', at + 1, this.starts[i + 1])
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2)
    const mask = this.slots.length - 1
    for (let i = 0; i < this.size; i++) {
      const id = this.id(i)
      let h = 0x811c9dc5
      for (let k = 0; k < id.length; k++) h = Math.imul(h ^ id.charCodeAt(k), 0x01000193)
      let s = (h >>> 0) & mask
      while (this.slots[s] !== 0) s = (s + 1) & mask
      this.slots[s] = i + 1
    }
  }
}

/** AuditSummary.latest: per subject, its latest entry carrying a state hash. */
export class LatestTable extends MapLike<string, { seq: number; stateHash: string }> {
  private seqs = new Float64Array(1 << 10)
  private readonly states = new HashColumn()
  private count = 0
  constructor(readonly ids: IdTable) {
    super()
  }
  set(subject: string, v: { seq: number; stateHash: string }): void {
    const i = this.ids.find(subject, true)
    if (!this.states.has(i)) this.count += 1
    this.seqs = grown(this.seqs, i + 1, (n) => new Float64Array(n))
    this.seqs[i] = v.seq
    this.states.set(i, v.stateHash)
  }
  /** By the subject's index in `ids`. */
  at(i: number): { seq: number; stateHash: string } | undefined {
    const stateHash = i < 0 ? undefined : this.states.get(i)
    return stateHash === undefined ? undefined : { seq: this.seqs[i] as number, stateHash }
  }
  get(subject: string): { seq: number; stateHash: string } | undefined {
    return this.at(this.ids.find(subject))
  }
  /** Whether the latest state hash of the subject at index `i` (of `ids`) is `stateHash`. */
  stateIs(i: number, stateHash: string): boolean {
    return i >= 0 && this.states.is(i, stateHash)
  }
  get size(): number {
    return this.count
  }
  *entries(): Generator<[string, { seq: number; stateHash: string }]> {
    for (let i = 0; i < this.ids.size; i++) {
      const v = this.at(i)
      if (v) yield [this.ids.id(i), v]
    }
  }
}

/** AuditSummary.hashes: seq → hash and subject of every entry, in the member's (increasing) seq order. */
export class EntryTable extends MapLike<number, { hash: string; subject: string | null }> {
  private seqs = new Uint32Array(1 << 10)
  private subjects = new Int32Array(1 << 10)
  private readonly hashes = new HashColumn()
  private n = 0
  /** Set once a seq comes out of order or past 2³² − 1: from then on the entries are kept in it. */
  private map: Map<number, { hash: string; subject: string | null }> | null = null
  constructor(readonly ids: IdTable) {
    super()
  }
  set(seq: number, v: { hash: string; subject: string | null }): void {
    const subject = v.subject === null ? -1 : this.ids.find(v.subject, true)
    if (!this.map && (seq > 0xffffffff || (this.n > 0 && !(seq > (this.seqs[this.n - 1] as number)))))
      this.map = new Map(this.entries())
    if (this.map) return void this.map.set(seq, v)
    this.seqs = grown(this.seqs, this.n + 1, (k) => new Uint32Array(k))
    this.subjects = grown(this.subjects, this.n + 1, (k) => new Int32Array(k))
    this.seqs[this.n] = seq
    this.subjects[this.n] = subject
    this.hashes.set(this.n++, v.hash)
  }
  private at(k: number): { hash: string; subject: string | null } {
    const s = this.subjects[k] as number
    return { hash: this.hashes.get(k) as string, subject: s < 0 ? null : this.ids.id(s) }
  }
  get(seq: number): { hash: string; subject: string | null } | undefined {
    if (this.map) return this.map.get(seq)
    let [lo, hi] = [0, this.n - 1]
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const m = this.seqs[mid] as number
      if (m === seq) return this.at(mid)
      if (m < seq) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }
  get size(): number {
    return this.map ? this.map.size : this.n
  }
  *entries(): Generator<[number, { hash: string; subject: string | null }]> {
    if (this.map) yield* this.map
    else for (let k = 0; k < this.n; k++) yield [this.seqs[k] as number, this.at(k)]
  }
  /** The first subject (by its index in `ids`) for which `outside` holds, or undefined. */
  subjectWhere(outside: (i: number) => boolean): string | null | undefined {
    if (this.map) {
      for (const { subject } of this.map.values())
        if (subject !== null && outside(this.ids.find(subject))) return subject
      return undefined
    }
    for (let k = 0; k < this.n; k++) {
      const s = this.subjects[k] as number
      if (s >= 0 && outside(s)) return this.ids.id(s)
    }
    return undefined
  }
}

/**
 * AuditCollected.stateHashes: localId → state hash of every exported record, in file order. A record whose hash
 * is its latest entry's keeps one byte saying so; any other keeps its hash in a Map (few: a verified export has
 * none).
 */
export class RecordStates extends MapLike<string, string> {
  /** Per id: 0 not a record, 1 its latest entry's state, 2 its own (in `own`). */
  private state = new Uint8Array(1 << 10)
  private order = new Int32Array(1 << 10)
  private n = 0
  private readonly own = new Map<number, string>()
  readonly ids: IdTable
  constructor(
    private readonly latest: LatestTable | null,
    ids?: IdTable,
  ) {
    super()
    this.ids = ids ?? latest?.ids ?? new IdTable()
  }
  /**
   * The same records without their state hashes (`has`, `size` and `keys` answer; `get` gives undefined): what
   * the review keeps once the verification compared them, as its comparisons (against.ts, against-ledger.ts)
   * only ask which records were exported. Lets go of the latest entries' state hashes (~40 bytes a record).
   */
  exportedOnly(): RecordStates {
    const r = new RecordStates(null, this.ids)
    r.state = this.state
    r.order = this.order
    r.n = this.n
    return r
  }
  set(localId: string, stateHash: string): void {
    const i = this.ids.find(localId, true)
    this.state = grown(this.state, i + 1, (k) => new Uint8Array(k))
    if (this.state[i] === 0) {
      this.order = grown(this.order, this.n + 1, (k) => new Int32Array(k))
      this.order[this.n++] = i
    }
    if (this.latest?.stateIs(i, stateHash)) {
      this.state[i] = 1
      this.own.delete(i)
    } else {
      this.state[i] = 2
      this.own.set(i, stateHash)
    }
  }
  /** Whether the id at index `i` of `ids` is a record. */
  isRecord(i: number): boolean {
    return i >= 0 && (this.state[i] ?? 0) !== 0
  }
  get(localId: string): string | undefined {
    const i = this.ids.find(localId)
    if (!this.isRecord(i)) return undefined
    return this.state[i] === 1 ? this.latest?.at(i)?.stateHash : this.own.get(i)
  }
  override has(localId: string): boolean {
    return this.isRecord(this.ids.find(localId))
  }
  get size(): number {
    return this.n
  }
  *entries(): Generator<[string, string]> {
    for (let k = 0; k < this.n; k++) {
      const i = this.order[k] as number
      yield [
        this.ids.id(i),
        (this.state[i] === 1 ? this.latest?.at(i)?.stateHash : this.own.get(i)) as string,
      ]
    }
  }
  /** The records whose state is not their latest entry's (file order): all that compareRecords must look at. */
  *unmatched(): Generator<[string, string]> {
    for (let k = 0; k < this.n; k++) {
      const i = this.order[k] as number
      if (this.state[i] === 2) yield [this.ids.id(i), this.own.get(i) as string]
    }
  }
}
