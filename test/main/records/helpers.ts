import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach } from 'vitest'
import type { Ledger } from '../../../src/main/ledger/sqlite/index'
import {
  canonicalManifestBytes,
  exportRecords,
  generateSigningKeyPair,
  type ExportOptions,
  type ExportResult,
} from '../../../src/main/records/index'
import {
  auditLines,
  type AuditSummary,
  type FastAuditLine,
  type Head,
} from '../../../src/main/records/audit-member'
import { manifestFileText } from '../../../src/main/records/manifest'
import { parseCsv } from '../../../src/main/records/csv'
import { signBytes, signingKey, type SigningKeyPair } from '../../../src/main/records/sign'
import { provenPrefix } from '../../../src/main/records/record-line'
import { cleanupTempDirs, tempDir } from './fixtures'

const ledgers: Ledger[] = []

afterEach(() => {
  for (const l of ledgers.splice(0)) {
    try {
      l.close()
    } catch {
      // closed by the test
    }
  }
  cleanupTempDirs()
})

export function track(l: Ledger): Ledger {
  ledgers.push(l)
  return l
}

export const SIGNER: SigningKeyPair = generateSigningKeyPair()
export const OTHER_SIGNER: SigningKeyPair = generateSigningKeyPair()
export const EXPORTED_AT = new Date('2025-06-01T12:00:00.000Z')

export function exportTo(ledger: Ledger, over: Partial<ExportOptions> = {}): Promise<ExportResult> {
  return exportRecords(ledger, {
    dir: tempDir('records-export-'),
    formats: ['csv', 'json', 'html'],
    signer: SIGNER,
    appVersion: '0.1.0-test',
    profile: { name: 'Produção', network: 'liquid' },
    now: () => EXPORTED_AT,
    ...over,
  })
}

export const fileIn = (res: ExportResult, name: string): string => path.join(res.folder, name)

export function readManifest(
  res: ExportResult,
): Record<string, unknown> & { files: Array<Record<string, unknown>> } {
  return JSON.parse(fs.readFileSync(res.manifestPath, 'utf8')) as Record<string, unknown> & {
    files: Array<Record<string, unknown>>
  }
}

export function writeManifest(res: ExportResult, m: Record<string, unknown>): void {
  fs.writeFileSync(res.manifestPath, manifestFileText(m))
}

/** Re-signs the manifest as an attacker holding `signer` would (public key replaced too). */
export function resign(m: Record<string, unknown>, signer: SigningKeyPair): void {
  m.publicKey = signer.publicKeyPem
  m.signature = signBytes(signingKey(signer), canonicalManifestBytes(m))
}

/** Updates a file's size and hash in the manifest to match its current bytes. */
export function fixHash(res: ExportResult, m: { files: Array<Record<string, unknown>> }, name: string): void {
  const buf = fs.readFileSync(fileIn(res, name))
  const entry = m.files.find((f) => f.name === name)
  if (!entry) throw new Error(`no ${name}`)
  entry.bytes = buf.length
  entry.sha256 = createHash('sha256').update(buf).digest('hex')
}

export function flipByte(file: string, offset: number): void {
  const buf = fs.readFileSync(file)
  const i = offset < 0 ? buf.length + offset : offset
  buf[i] = (buf[i] ?? 0) ^ 0x01
  fs.writeFileSync(file, buf)
}

/**
 * The data rows of an export's CSV (written in `today`'s columns) as an export in an earlier order wrote them
 * (`earlier`, e.g. LEGACY_CSV_COLUMNS or a prefix of it): cells copied as they are in the file (already
 * neutralised; quoted again).
 */
export function rowsInOrder(
  file: string,
  delimiter: ';' | ',',
  today: readonly { id: string }[],
  earlier: readonly { id: string }[],
): string[] {
  const at = earlier.map((l) => today.findIndex((c) => c.id === l.id))
  const out: string[] = []
  parseCsv(fs.readFileSync(file).subarray(3), delimiter, (row) => {
    out.push(at.map((i) => `"${row.cell(i).replace(/"/g, '""')}"`).join(delimiter))
  })
  return out.slice(1)
}

/** audit.jsonl, all of it in `text`, read as the verifier streams it (`fast` null: the wording pass alone). */
export function readAuditText(text: string, head: Head | null, fast?: FastAuditLine | null): AuditSummary {
  const reader = auditLines(head, fast)
  const lines = text.split('\n')
  const terminated = lines[lines.length - 1] === ''
  if (terminated) lines.pop()
  for (const line of lines) reader.line(line)
  return reader.end(terminated)
}

/**
 * The state hash of the record a records.json line holds, given what JSON.parse made of it: the SHA-256 of `{` and
 * the line after its first member, once provenPrefix has proven the line is exactly recordLine(parsed); else null.
 */
export function stateHashOfLine(line: string, parsed: unknown): string | null {
  const prefix = provenPrefix(line, parsed)
  if (prefix === null) return null
  const state = line.charCodeAt(prefix.length) === 0x2c ? `{${line.slice(prefix.length + 1)}` : '{}'
  return createHash('sha256').update(state, 'utf8').digest('hex')
}
