/**
 * The start-up check's checkpoint, kept beside the ledger (`<ledger>.checkpoint.json`): the audit head that the
 * last successful verification reached. It is a hint, never a proof: the next start trusts it only when the
 * chain still proves it (the entry at that seq still has that hash, and the chain from there to the head
 * verifies: verifyChainSteps `from`), so a forged or rolled-back file costs a full walk, nothing else. It only
 * spares re-walking the audit entries up to it; every record is still hashed against its latest entry, because
 * a record row edited with plain SQL leaves no entry to walk.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { z } from 'zod'
import type { AuditHead } from './audit'

const checkpointSchema = z.strictObject({
  version: z.literal(1),
  seq: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
})

const MAX_CHECKPOINT_BYTES = 1024

export function checkpointPath(ledgerFile: string): string {
  return `${ledgerFile}.checkpoint.json`
}

/** The stored checkpoint, or null when there is none or it is not one (a full walk then). */
export function readCheckpoint(ledgerFile: string): AuditHead | null {
  let text: string
  try {
    text = readFileSync(checkpointPath(ledgerFile), 'utf8')
  } catch {
    return null
  }
  if (text.length > MAX_CHECKPOINT_BYTES) return null
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = checkpointSchema.safeParse(json)
  return parsed.success ? { seq: parsed.data.seq, hash: parsed.data.hash } : null
}

/** Atomic replace (temporary file, fsync, rename). Best effort: without it the next start walks everything. */
export function writeCheckpoint(ledgerFile: string, head: AuditHead): void {
  if (head.seq < 1) return
  const file = checkpointPath(ledgerFile)
  const tmp = `${file}.tmp`
  try {
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeSync(fd, `${JSON.stringify({ version: 1, seq: head.seq, hash: head.hash })}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, file)
  } catch {
    rmSync(tmp, { force: true })
  }
}

export function removeCheckpoint(ledgerFile: string): void {
  rmSync(checkpointPath(ledgerFile), { force: true })
}
