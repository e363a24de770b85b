import fs from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AuditEntry } from '../../../src/shared/withdrawal-record'
import { auditHash } from '../../../src/main/ledger/model/audit-hash'
import { canonicalJson } from '../../../src/main/ledger/model/canonical-json'
import { recordStateHash } from '../../../src/main/ledger/model/state-hash'
import { against } from '../../../src/main/records/against'
import { ExportError } from '../../../src/main/records/export'
import { verifyExport } from '../../../src/main/records/verify'
import { main as cli } from '../../../scripts/verify-export'
import { cleanupTempDirs, makeRecords, seededLedger } from './fixtures'
import { exportTo, fileIn, fixHash, readManifest, resign, SIGNER, track, writeManifest } from './helpers'

/** The problems of `against` alone. */
const checkAgainst = async (...a: Parameters<typeof against>) => (await against(...a)).problems

afterEach(() => cleanupTempDirs())

function sql(file: string, text: string): void {
  const db = new DatabaseSync(file)
  db.exec(text)
  db.close()
}

const checks = (v: { problems: Array<{ file: string; check: string }> }): string[] =>
  v.problems.map((p) => `${p.file}:${p.check}`)

/**
 * What someone who can write the file does to hide an edit: drop the guards, change the record, give its
 * latest entry the new state hash, and recompute every hash from there on, head included. The ledger's own
 * check then passes.
 */
function rewriteHistory(
  file: string,
  localId: string,
  pixKey: string,
  stateHash: (f: string) => string,
): void {
  sql(
    file,
    `DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_head_forward;
     UPDATE withdrawals SET pix_key = '${pixKey}' WHERE local_id = '${localId}';`,
  )
  const newState = stateHash(file)
  const db = new DatabaseSync(file)
  const rows = db.prepare('SELECT * FROM audit_log ORDER BY seq').all()
  const target = Number(
    db
      .prepare('SELECT max(seq) AS s FROM audit_log WHERE subject = ? AND state_hash IS NOT NULL')
      .get(localId)?.s,
  )
  let prev = '0'.repeat(64)
  const update = db.prepare('UPDATE audit_log SET prev_hash = ?, hash = ?, state_hash = ? WHERE seq = ?')
  for (const r of rows) {
    const e: Omit<AuditEntry, 'hash'> = {
      seq: Number(r.seq),
      at: String(r.at),
      operator: String(r.operator),
      action: String(r.action),
      subject: r.subject === null ? null : String(r.subject),
      details: JSON.parse(String(r.details)) as Record<string, unknown>,
      prevHash: prev,
      ...(r.state_hash !== null
        ? { stateHash: Number(r.seq) === target ? newState : String(r.state_hash) }
        : {}),
    }
    const hash = auditHash(e)
    update.run(prev, hash, e.stateHash ?? null, e.seq)
    prev = hash
  }
  db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(rows.length, prev)
  db.close()
}

describe('the audit member of an export', () => {
  it('carries the entries of the exported records; the export verifies', async () => {
    const { ledger } = seededLedger(makeRecords(30))
    track(ledger)
    const head = ledger.auditHead()
    const res = await exportTo(ledger, { filter: { profile: 'producao' } })
    const m = readManifest(res) as unknown as {
      files: Array<{ name: string; format: string }>
      auditHead: { seq: number }
    }
    expect(m.files.find((f) => f.format === 'audit')).toMatchObject({ name: 'audit.jsonl' })
    const lines = fs.readFileSync(fileIn(res, 'audit.jsonl'), 'utf8').trimEnd().split('\n')
    expect(lines.length).toBe(res.rowCount) // one import entry per record, nothing else about them
    for (const l of lines) expect(canonicalJson(JSON.parse(l))).toBe(l)
    expect(m.auditHead).toEqual(head)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
  })

  it('a tampered audit.jsonl (entry edited, file hash fixed, manifest re-signed) is detected', async () => {
    const { ledger } = seededLedger(makeRecords(5))
    track(ledger)
    const res = await exportTo(ledger, { formats: ['json'] })
    const file = fileIn(res, 'audit.jsonl')
    const lines = fs.readFileSync(file, 'utf8').split('\n')
    const e = JSON.parse(lines[1]!) as AuditEntry
    lines[1] = canonicalJson({ ...e, operator: 'mallory' })
    fs.writeFileSync(file, lines.join('\n'))
    const m = readManifest(res)
    fixHash(res, m as { files: Array<Record<string, unknown>> }, 'audit.jsonl')
    resign(m, SIGNER)
    writeManifest(res, m)
    const v = await verifyExport(res.manifestPath)
    expect(checks(v)).toEqual(['audit.jsonl:audit'])
    expect(v.problems[0]?.detail).toMatch(/hash does not match its content/)
  })

  it('an export of a ledger edited with plain SQL is refused (audit_chain_broken), nothing written', async () => {
    const { ledger, file } = seededLedger(makeRecords(5))
    track(ledger)
    const id = ledger.query({ limit: 1 }).rows[0]!.localId
    sql(file, `UPDATE withdrawals SET amount_cents = amount_cents + 1 WHERE local_id = '${id}'`)
    const err = await exportTo(ledger).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ExportError)
    expect(err).toMatchObject({
      code: 'audit_chain_broken',
      userMessage: { 'pt-BR': expect.stringMatching(/recusada/) },
      // The verifier's English goes under "Detalhes técnicos", not into the pt-BR sentence.
      reason: expect.stringContaining(id),
    })
    expect((err as ExportError).userMessage?.['pt-BR']).not.toMatch(/differs|record/)
  })

  it('--against an earlier export: growth passes; a whole-chain rewrite the ledger itself accepts is caught', async () => {
    const { ledger, file } = seededLedger(makeRecords(8))
    track(ledger)
    const older = await exportTo(ledger)
    const [target, other] = ledger.query({ limit: 2 }).rows
    ledger.setFlags(other!.localId, ['checked'], 'ana') // the ledger grows
    const newer = await exportTo(ledger)
    const vNewer = await verifyExport(newer.manifestPath, { fixedHashes: true })
    expect(vNewer.ok).toBe(true)
    expect(await checkAgainst(vNewer, older.manifestPath)).toEqual([])
    // A plain verification skips the fixed hashes; --against given one refuses rather than comparing less.
    const plain = await verifyExport(newer.manifestPath)
    expect(plain.ok).toBe(true)
    expect(plain.audit?.fixedHashes).toBeNull()
    expect(plain.audit?.stateHashes?.size).toBe(8)
    expect(await checkAgainst(plain, older.manifestPath)).toEqual([
      { file: 'against', check: 'audit', detail: 'the newer export was verified without its fixed hashes' },
    ])

    rewriteHistory(file, target!.localId, 'mallory@example.com', () =>
      recordStateHash(ledger.get(target!.localId)!),
    )
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: true }) // undetectable from inside the file
    const forged = await exportTo(ledger)
    const vForged = await verifyExport(forged.manifestPath, { fixedHashes: true })
    expect(vForged.ok).toBe(true) // and the forged export is self-consistent
    const problems = await checkAgainst(vForged, older.manifestPath)
    const said = problems.map((p) => p.detail).join('\n')
    expect(said).toMatch(/entry \d+ about .* was rewritten/)
    expect(said).toMatch(/Pix key, amount or request differ/)

    // The in-app check, against the older export's head, catches it too.
    const m = readManifest(older) as unknown as { auditHead: { seq: number; hash: string } }
    expect(ledger.verifyExtends(m.auditHead)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/rewritten/),
    })

    // The CLI: exit status 1 and the problem printed.
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      expect(await cli([forged.manifestPath, '--against', older.manifestPath])).toBe(1)
      expect(log.mock.calls.flat().join('\n')).toMatch(/PROBLEM {2}against {2}\[audit\].*rewritten/)
      expect(await cli([newer.manifestPath, '--against', older.manifestPath])).toBe(0)
    } finally {
      log.mockRestore()
    }
  })
})
