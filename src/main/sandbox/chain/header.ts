/**
 * Elements block headers, as rust-elements (inside LWK) decodes them: version, previous hash, merkle root, time,
 * height, then the pre-dynafed "Proof" extension (challenge script, solution script). The sandbox signs nothing:
 * the challenge is OP_TRUE and the solution empty. The block hash covers everything but the solution, as in
 * rust-elements' `BlockHeader::block_hash`.
 */
import { createHash } from 'node:crypto'

export interface HeaderFields {
  /** display hex (big-endian) of the previous block, 64 zeros for genesis */
  readonly prevHash: string
  /** internal byte order, 32 bytes */
  readonly merkleRoot: Buffer
  /** seconds since the epoch */
  readonly time: number
  readonly height: number
}

const VERSION = 0x20000000
const CHALLENGE = Buffer.from([0x51])

export const sha256d = (b: Buffer): Buffer =>
  createHash('sha256').update(createHash('sha256').update(b).digest()).digest()

export const toDisplay = (internal: Buffer): string => Buffer.from(internal).reverse().toString('hex')
export const fromDisplay = (hex: string): Buffer => Buffer.from(hex, 'hex').reverse()

function base(h: HeaderFields): Buffer {
  const b = Buffer.alloc(4 + 32 + 32 + 4 + 4)
  b.writeUInt32LE(VERSION, 0)
  fromDisplay(h.prevHash).copy(b, 4)
  h.merkleRoot.copy(b, 36)
  b.writeUInt32LE(h.time, 68)
  b.writeUInt32LE(h.height, 72)
  return b
}

/** The serialized header, hex, as `GET /block/:hash/header` returns it. */
export function encodeHeader(h: HeaderFields): string {
  return Buffer.concat([base(h), Buffer.from([CHALLENGE.length]), CHALLENGE, Buffer.from([0])]).toString(
    'hex',
  )
}

export function blockHash(h: HeaderFields): string {
  return toDisplay(sha256d(Buffer.concat([base(h), Buffer.from([CHALLENGE.length]), CHALLENGE])))
}

/** Bitcoin's merkle root over txids (display hex in, internal bytes out); all zeros for an empty block. */
export function merkleRoot(txids: readonly string[]): Buffer {
  if (txids.length === 0) return Buffer.alloc(32)
  let level = txids.map(fromDisplay)
  while (level.length > 1) {
    const next: Buffer[] = []
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i] as Buffer
      const b = level[i + 1] ?? a
      next.push(sha256d(Buffer.concat([a, b])))
    }
    level = next
  }
  return level[0] as Buffer
}
