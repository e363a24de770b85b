/**
 * The verifier's fast check of an audit.jsonl line: one JSON.parse, one JSON.stringify (the line is its canonical
 * form) and the entry's hash, without zod or re-canonicalising the details (most of the wording pass's cost).
 *
 * It only ever says "clean" or "not clean". Clean means the line is an entry that the wording pass (auditLines,
 * audit-member.ts) accepts without a problem — an exact, strict entry in canonical form whose hash matches, after
 * the one before it, linked, within the head — or the redaction line last; it then collects what that pass would.
 * Anything else, or anything it is not sure of (a `__proto__` key, array-index keys, an unsafe seq), is "not
 * clean", and the wording pass reads that line and words its problems: the fast check never reports a problem
 * itself, so it can be stricter than the real reader, never laxer.
 */
import { hash } from 'node:crypto'
import {
  auditLines,
  emptySummary,
  readAuditMember,
  type AuditLines,
  type AuditLineState,
  type AuditSummary,
  type FastAuditLine,
  type Head,
} from './audit-member'

/** A clean member: what readAuditMember would have collected from it (no problems). */
export interface AuditKernelResult {
  clean: true
  summary: AuditSummary
}

export interface AuditReader {
  readAudit(buf: Uint8Array, head: Head | null): AuditKernelResult | { clean: false }
  entryLine: FastAuditLine
}

export function auditReaderKernel(sha256Hex: (text: string) => string): AuditReader {
  // The members of an entry in canonical (sorted) order, with and without stateHash.
  const WITH = ['action', 'at', 'details', 'hash', 'operator', 'prevHash', 'seq', 'stateHash', 'subject']
  const WITHOUT = ['action', 'at', 'details', 'hash', 'operator', 'prevHash', 'seq', 'subject']

  function sameKeys(keys: string[], want: string[]): boolean {
    if (keys.length !== want.length) return false
    for (let i = 0; i < keys.length; i++) if (keys[i] !== want[i]) return false
    return true
  }

  /** JSON.stringify(v) is its canonical JSON, and nothing a schema's copy could change (no `__proto__`). */
  function canonicalAsParsed(v: unknown): boolean {
    if (typeof v !== 'object' || v === null) return true
    if (Array.isArray(v)) {
      for (const x of v) if (!canonicalAsParsed(x)) return false
      return true
    }
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === '__proto__') return false
      if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false
    }
    for (const k of keys) if (!canonicalAsParsed(o[k])) return false
    return true
  }

  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)

  /** One line (see FastAuditLine in audit-member.ts): true only when the wording pass would find no problem. */
  const entryLine: FastAuditLine = (line, last, head, state) => {
    if (!head) return false
    let v: unknown
    try {
      v = JSON.parse(line)
    } catch {
      return false
    }
    if (!isObject(v) || JSON.stringify(v) !== line) return false
    const keys = Object.keys(v)
    const { out, prev } = state
    if (last && keys.length === 1 && keys[0] === 'redacted') {
      const ids = v.redacted
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return false
      for (const id of ids as string[]) out.redacted.add(id)
      return true
    }
    const { action, at, details, hash, operator, seq, stateHash, subject } = v
    if (!sameKeys(keys, stateHash === undefined ? WITHOUT : WITH)) return false
    if (typeof action !== 'string' || typeof operator !== 'string') return false
    if (typeof at !== 'string' || at.length === 0) return false
    if (typeof hash !== 'string' || typeof v.prevHash !== 'string') return false
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= 0) return false
    if (subject !== null && typeof subject !== 'string') return false
    if (stateHash !== undefined && stateHash !== null && typeof stateHash !== 'string') return false
    if (!isObject(details) || !canonicalAsParsed(details)) return false
    // audit-hash.ts auditHashOfText, over the details' canonical text: the line is canonical, so that text is
    // in it, between the keys `details` and `hash` (the first and the last match: a quote in a value is escaped).
    const detailsText = line.slice(line.indexOf(',"details":') + 11, line.lastIndexOf(',"hash":"'))
    const fields: unknown[] = [seq, at, operator, action, subject, detailsText, v.prevHash]
    if (typeof stateHash === 'string') fields.push(stateHash)
    if (sha256Hex(JSON.stringify(fields)) !== hash) return false
    if (prev && seq <= prev.seq) return false
    if (prev && seq === prev.seq + 1 && v.prevHash !== prev.hash) return false
    if (seq > head.seq || (seq === head.seq && hash !== head.hash)) return false
    out.entries += 1
    out.hashes.set(seq, { hash, subject })
    if (subject !== null && typeof stateHash === 'string') out.latest.set(subject, { seq, stateHash })
    state.prev = { seq, hash }
    return true
  }

  /** A whole member by the fast pass alone: clean when every line passes it. */
  function readAudit(buf: Uint8Array, head: Head | null): AuditKernelResult | { clean: false } {
    const text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8')
    const lines = text.split('\n')
    if (lines[lines.length - 1] !== '') return { clean: false }
    lines.pop()
    const state: AuditLineState = { prev: null, out: emptySummary() }
    for (const [i, line] of lines.entries())
      if (!entryLine(line, i === lines.length - 1, head, state)) return { clean: false }
    return { clean: true, summary: state.out }
  }

  return { readAudit, entryLine }
}

const fastReader = auditReaderKernel((text) => hash('sha256', text))

/** audit.jsonl read as it streams, each line by the fast pass when it passes, else by the wording pass. */
export function auditStream(head: Head | null): AuditLines {
  return auditLines(head, fastReader.entryLine)
}

/** audit.jsonl (valid UTF-8), all of it in `data`, read as auditStream reads it. */
export function auditSummary(data: Buffer, head: Head | null): AuditSummary {
  return readAuditMember(data.toString('utf8'), head, fastReader.entryLine)
}
