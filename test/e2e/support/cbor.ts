/**
 * The little of CBOR (RFC 8949) a Jade's RPC uses, for the fake Jade of the "Jade over USB" E2E: unsigned and
 * negative integers, byte and text strings, arrays, maps (decoded to plain objects with string keys), false,
 * true, null; indefinite-length arrays and maps on decoding (serde_cbor writes a flattened struct — LWK's
 * `handshake_init` / `handshake_complete` params — as one). Floats and tags never occur in LWK's requests; meeting
 * one is an error, not a guess.
 */
export type Cbor = null | boolean | number | string | Uint8Array | Cbor[] | { [key: string]: Cbor }

export function encodeCbor(value: Cbor): Uint8Array {
  const out: number[] = []
  const head = (major: number, n: number): void => {
    if (n < 24) out.push((major << 5) | n)
    else if (n < 0x100) out.push((major << 5) | 24, n)
    else if (n < 0x10000) out.push((major << 5) | 25, n >> 8, n & 0xff)
    else if (n < 0x100000000)
      out.push((major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff)
    else {
      const big = BigInt(n)
      out.push((major << 5) | 27)
      for (let i = 7; i >= 0; i--) out.push(Number((big >> BigInt(8 * i)) & 0xffn))
    }
  }
  const walk = (v: Cbor): void => {
    if (v === null) out.push(0xf6)
    else if (v === false) out.push(0xf4)
    else if (v === true) out.push(0xf5)
    else if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new Error(`cbor: not an integer ${v}`)
      if (v >= 0) head(0, v)
      else head(1, -1 - v)
    } else if (typeof v === 'string') {
      const bytes = Buffer.from(v, 'utf8')
      head(3, bytes.length)
      out.push(...bytes)
    } else if (v instanceof Uint8Array) {
      head(2, v.length)
      for (const b of v) out.push(b)
    } else if (Array.isArray(v)) {
      head(4, v.length)
      v.forEach(walk)
    } else {
      const entries = Object.entries(v)
      head(5, entries.length)
      for (const [k, x] of entries) {
        walk(k)
        walk(x)
      }
    }
  }
  walk(value)
  return Uint8Array.from(out)
}

class Incomplete extends Error {}

/** The first whole CBOR item in `bytes` and how many bytes it took; null while more bytes are needed. */
export function decodeCbor(bytes: Uint8Array): { value: Cbor; length: number } | null {
  let at = 0
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new Incomplete()
  }
  const byte = (): number => {
    need(1)
    return bytes[at++] as number
  }
  const argument = (info: number): number => {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0) throw new Error(`cbor: unsupported additional info ${info}`)
    let n = 0n
    for (let i = 0; i < size; i++) n = (n << 8n) | BigInt(byte())
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('cbor: integer beyond 2^53')
    return Number(n)
  }
  const item = (): Cbor => {
    const first = byte()
    const major = first >> 5
    const info = first & 0x1f
    if (major === 7) {
      if (info === 20) return false
      if (info === 21) return true
      if (info === 22) return null
      throw new Error(`cbor: unsupported simple/float ${info}`)
    }
    if (info === 31 && (major === 4 || major === 5)) {
      // Indefinite length: items until the "break" byte.
      const items: Cbor[] = []
      for (;;) {
        need(1)
        if (bytes[at] === 0xff) {
          at++
          break
        }
        items.push(item())
      }
      if (major === 4) return items
      const map: { [key: string]: Cbor } = {}
      for (let i = 0; i + 1 < items.length; i += 2) map[String(items[i])] = items[i + 1] as Cbor
      return map
    }
    const n = argument(info)
    switch (major) {
      case 0:
        return n
      case 1:
        return -1 - n
      case 2:
      case 3: {
        need(n)
        const slice = bytes.slice(at, at + n)
        at += n
        return major === 2 ? slice : Buffer.from(slice).toString('utf8')
      }
      case 4:
        return Array.from({ length: n }, item)
      case 5: {
        const map: { [key: string]: Cbor } = {}
        for (let i = 0; i < n; i++) {
          const key = item()
          map[String(key)] = item()
        }
        return map
      }
      default:
        throw new Error(`cbor: unsupported major type ${major}`)
    }
  }
  try {
    const value = item()
    return { value, length: at }
  } catch (e) {
    if (e instanceof Incomplete) return null
    throw e
  }
}
