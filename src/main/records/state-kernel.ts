/**
 * The state hashes of records.json (export format 2, record-line.ts) on the verifier's helper thread: for each
 * line, the SHA-256 of `{` followed by the bytes after its first member. On 2 cores the main thread parsing and
 * proving the lines is the bound of a verification; these 100k hashes then cost it nothing.
 *
 * The kernel proves nothing. It splits the lines as readRecordsFile (json.ts) does and finds where the
 * `remoteCheckedAt` member ends by reading bytes; the main thread still proves every line is exactly the state
 * layout of what it parsed to (record-line.ts), and takes a hash from here only for a line whose start, end of
 * first member and end are the very byte offsets it found itself (verify.ts). So a wrong split here costs speed
 * (the main thread hashes that line), never a line hashed other than as proven; and a wrong hash can only make an
 * intact record look changed, never the reverse.
 *
 * Self-contained like the CSV and audit readers (kernel.ts): the worker runs `stateHashKernel.toString()`,
 * checked on a sample against this thread's copy; SHA-256 of bytes is passed in.
 */

/** Per line, in file order (plain arrays: cheap to send between threads). */
export interface StateLines {
  /** Byte offset where the line starts. */
  starts: number[]
  /** Byte offset of the comma after the first member, -1 when the line does not start as the layout does. */
  commas: number[]
  /** Byte offset where the line ends (its separating comma, the line feed or the tail excluded). */
  stops: number[]
  /** SHA-256 (hex) of `{` + the bytes from after the comma to the stop; '' where `commas` is -1. */
  hashes: string[]
}

/** The bytes between the file's head and tail (json.ts: jsonHead, JSON_TAIL). */
export interface StateRange {
  from: number
  to: number
}

export interface StateHasher {
  hashLines(buf: Uint8Array, range: StateRange): StateLines
}

export function stateHashKernel(sha256Hex: (bytes: Uint8Array) => string): StateHasher {
  // `{"remoteCheckedAt":`
  const PREFIX = [
    0x7b, 0x22, 0x72, 0x65, 0x6d, 0x6f, 0x74, 0x65, 0x43, 0x68, 0x65, 0x63, 0x6b, 0x65, 0x64, 0x41, 0x74,
    0x22, 0x3a,
  ]
  const NULL = [0x6e, 0x75, 0x6c, 0x6c]

  /** Offset of the comma ending the first member of the line at [start, stop), or -1. */
  function commaAfterFirst(buf: Uint8Array, start: number, stop: number): number {
    if (stop - start < PREFIX.length + 2) return -1
    for (let k = 0; k < PREFIX.length; k++) if (buf[start + k] !== PREFIX[k]) return -1
    let i = start + PREFIX.length
    if (buf[i] === 0x22) {
      // A JSON string: to its closing quote, an escape skipping the character after the backslash.
      i += 1
      while (i < stop && buf[i] !== 0x22) i += buf[i] === 0x5c ? 2 : 1
      if (i >= stop) return -1
      i += 1
    } else {
      for (let k = 0; k < NULL.length; k++) if (buf[i + k] !== NULL[k]) return -1
      i += NULL.length
    }
    return i < stop && buf[i] === 0x2c ? i : -1
  }

  function hashLines(buf: Uint8Array, range: StateRange): StateLines {
    const out: StateLines = { starts: [], commas: [], stops: [], hashes: [] }
    // One scratch buffer for `{` + a line's state bytes, grown when a line is longer.
    let scratch = new Uint8Array(1 << 16)
    let i = range.from
    const end = range.to
    while (i < end) {
      let nl = buf.indexOf(0x0a, i)
      if (nl === -1 || nl > end) nl = end
      // As json.ts: every line but the last ends with the separating comma.
      const stop = nl === end ? nl : buf[nl - 1] === 0x2c ? nl - 1 : -1
      if (stop < 0) break
      const comma = commaAfterFirst(buf, i, stop)
      let h = ''
      if (comma >= 0) {
        const n = stop - comma
        if (n > scratch.length) scratch = new Uint8Array(n * 2)
        scratch[0] = 0x7b
        scratch.set(buf.subarray(comma + 1, stop), 1)
        h = sha256Hex(scratch.subarray(0, n))
      }
      out.starts.push(i)
      out.commas.push(comma)
      out.stops.push(stop)
      out.hashes.push(h)
      i = nl + 1
    }
    return out
  }

  return { hashLines }
}
