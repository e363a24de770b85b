/**
 * `verify-export --against` says what the review page's comparison says (records/against.ts): a rewritten history
 * fails (exit 1); growth it can show passes with no note; growth it cannot link from the two files (the older head
 * is an entry about no exported record and the newer export has no anchors) and an older export signed by another
 * key pass but are printed as notes, never as a plain INTACT with nothing said. Real ledgers, real exports, the CLI's own main().
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { main as cli } from '../../../scripts/verify-export'
import { against } from '../../../src/main/records/against'
import { keyFingerprint } from '../../../src/main/records/sign'
import { verifyExport } from '../../../src/main/records/verify'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, OTHER_SIGNER, readManifest, resign, SIGNER, track, writeManifest } from './helpers'
import type { Ledger } from '../../../src/main/ledger/sqlite/index'

/** The CLI's exit status and what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    const code = await cli(args)
    return { code, out: log.mock.calls.flat().join('\n') }
  } finally {
    log.mockRestore()
  }
}

/** A write about an exported record: the next export's head is then an entry that export carries. */
function touch(l: Ledger, flag: string): void {
  l.setFlags(l.query({ limit: 1 }).rows[0]!.localId, [flag], 'ana')
}

afterEach(() => vi.restoreAllMocks())

describe(
  'verify-export --against: problems fail, what cannot be shown is a note',
  { timeout: 60_000 },
  () => {
    it('growth it can link: exit 0, no note; the same pair in --json has no notes', async () => {
      const { ledger } = seededLedger(makeRecords(5))
      track(ledger)
      touch(ledger, 'checked')
      const older = await exportTo(ledger, { formats: ['json'] })
      touch(ledger, 'payee_mismatch')
      const newer = await exportTo(ledger, { formats: ['json'] })
      const r = await run(newer.manifestPath, '--against', older.folder)
      expect(r.code).toBe(0)
      expect(r.out).not.toContain('note     against')
      expect(r.out.split('\n')[0]).toBe('RESULT: INTACT — every file matches the signed manifest')
      const json = await run(newer.manifestPath, '--against', older.folder, '--json')
      expect(JSON.parse(json.out)).toMatchObject({ ok: true, againstNotes: [] })
    })

    it('an older head about no exported record: proven through the anchors; without them, a note', async () => {
      // Right after the import the head is `records.imported`, about no record: no audit.jsonl carries it, but
      // the newer export's anchors.jsonl does (issue #12).
      const { ledger } = seededLedger(makeRecords(5))
      track(ledger)
      const older = await exportTo(ledger, { formats: ['json'] })
      const head = (readManifest(older) as unknown as { auditHead: { seq: number } }).auditHead
      touch(ledger, 'checked')
      const newer = await exportTo(ledger, { formats: ['json'] })
      const proven = await run(newer.manifestPath, '--against', older.manifestPath)
      expect(proven.code).toBe(0)
      expect(proven.out).not.toContain('note     against')

      // The newer export as made before anchors: the link cannot be shown from the two files.
      fs.rmSync(path.join(newer.folder, 'anchors.jsonl'))
      const m = readManifest(newer)
      m.files = m.files.filter((f) => f['format'] !== 'anchors')
      resign(m, SIGNER)
      writeManifest(newer, m)
      const r = await run(newer.manifestPath, '--against', older.manifestPath)
      expect(r.code).toBe(0)
      const notes = r.out.split('\n').filter((l) => l.startsWith('note     against  '))
      expect(notes).toEqual([
        `note     against  this export does not carry entry ${head.seq} (the older export's audit head): ` +
          '5 records both exports carry agree, but the link between the two heads cannot be shown',
      ])
      // The verdict still first and last.
      const lines = r.out.trimEnd().split('\n')
      expect(lines.at(-1)).toBe(lines[0])
    })

    it('an older export signed by another key: exit 0 with a note naming both keys', async () => {
      const { ledger } = seededLedger(makeRecords(3))
      track(ledger)
      touch(ledger, 'checked')
      const older = await exportTo(ledger, { formats: ['json'] })
      const m = readManifest(older)
      resign(m, OTHER_SIGNER)
      writeManifest(older, m)
      touch(ledger, 'payee_mismatch')
      const newer = await exportTo(ledger, { formats: ['json'] })
      const v = await verifyExport(newer.manifestPath, { fixedHashes: true })
      const out = await against(v, older.manifestPath)
      expect(out.problems).toEqual([])
      expect(out.notes).toEqual([
        `the older export was signed by key ${keyFingerprint(OTHER_SIGNER.publicKeyPem)}, this one by ${keyFingerprint(SIGNER.publicKeyPem)}`,
      ])
      const r = await run(newer.manifestPath, '--against', older.manifestPath)
      expect(r.code).toBe(0)
      expect(r.out).toContain('note     against  the older export was signed by key ')
    })

    it('the wrong way round and a tampered older export: exit 1, a problem, no note', async () => {
      const { ledger } = seededLedger(makeRecords(3))
      track(ledger)
      touch(ledger, 'checked')
      const older = await exportTo(ledger, { formats: ['json'] })
      touch(ledger, 'payee_mismatch')
      const newer = await exportTo(ledger, { formats: ['json'] })
      const back = await run(older.manifestPath, '--against', newer.manifestPath)
      expect(back.code).toBe(1)
      expect(back.out).toMatch(/^PROBLEM {2}against {2}\[audit\] {2}audit head went back/m)
      expect(back.out).not.toContain('note     against')

      const json = path.join(older.folder, 'records.json')
      fs.writeFileSync(json, fs.readFileSync(json, 'utf8').replace('"sent"', '"Sent"'))
      const tampered = await run(newer.manifestPath, '--against', older.manifestPath)
      expect(tampered.code).toBe(1)
      expect(tampered.out).toMatch(/^PROBLEM {2}against {2}\[audit\] {2}the older export does not verify/m)
      expect(tampered.out).not.toContain('note     against')
    })
  },
)
