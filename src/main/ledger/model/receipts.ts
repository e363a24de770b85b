/**
 * What both engines and the receipt fetcher agree on about a receipt: its media types, its size cap (the team
 * database's CHECK is built from it, migration 2) and how its bytes are named (their SHA-256).
 */
import { createHash } from 'node:crypto'

export type ReceiptMediaType = 'application/pdf' | 'text/html'

export const RECEIPT_MAX_BYTES = 5 * 1024 * 1024

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')
