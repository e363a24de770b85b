/**
 * The exported records' state hashes, collected in file order while records.json is read (verify.ts): a hash
 * computed here, or a proven line's byte offsets whose hash the checker's thread computes meanwhile
 * (state-kernel.ts). `result` takes a hash from there only for a line at exactly the offsets proven here, and
 * hashes the bytes on this thread otherwise, so what is hashed is always what was proven. A localId seen twice
 * keeps its last record's hash, as it always did (the repeat is a schema problem of its own).
 */
import { hash } from 'node:crypto'
import type { StateLines } from './state-kernel'

const OPEN_BRACE = Buffer.from('{', 'utf8')

export class StateHashOrder {
  private readonly ids: string[] = []
  /** null: the line at the same index of the offsets below, hashed later. */
  private readonly hashes: Array<string | null> = []
  private readonly starts: number[] = []
  private readonly commas: number[] = []
  private readonly stops: number[] = []

  constructor(private readonly buf: Buffer) {}

  /** A hash computed already. */
  set(id: string, stateHash: string): void {
    this.push(id, stateHash, -1, -1, -1)
  }

  /**
   * A line proven to be in the state layout (record-line.ts, provenPrefix): [start, stop) its bytes, `comma` the
   * offset of the comma after its first member. Its state text is `{` and the bytes after that comma.
   */
  lineBytes(id: string, start: number, comma: number, stop: number): void {
    this.push(id, null, start, comma, stop)
  }

  /** localId → state hash, with the hashes `there` computed where they are of the same bytes. */
  result(there: StateLines | null): Map<string, string> {
    const out = new Map<string, string>()
    let k = 0
    for (let j = 0; j < this.ids.length; j++) {
      let h = this.hashes[j] ?? null
      if (h === null) {
        const start = this.starts[j]!
        if (there) while (k < there.starts.length && there.starts[k]! < start) k++
        h =
          there &&
          there.starts[k] === start &&
          there.commas[k] === this.commas[j] &&
          there.stops[k] === this.stops[j] &&
          there.hashes[k] !== ''
            ? there.hashes[k]!
            : this.hashHere(this.commas[j]!, this.stops[j]!)
      }
      out.set(this.ids[j]!, h)
    }
    return out
  }

  private hashHere(comma: number, stop: number): string {
    return hash('sha256', Buffer.concat([OPEN_BRACE, this.buf.subarray(comma + 1, stop)]))
  }

  private push(id: string, h: string | null, start: number, comma: number, stop: number): void {
    this.ids.push(id)
    this.hashes.push(h)
    this.starts.push(start)
    this.commas.push(comma)
    this.stops.push(stop)
  }
}
