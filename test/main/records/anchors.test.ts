/**
 * anchors.jsonl (issue #12): a newer export carries the head entry of every earlier export of its ledger, so
 * `--against` proves growth even when the older head is about no exported record; a ledger whose history was
 * rewritten (every hash recomputed, the same key) shows as rewritten; a tampered or hostile anchors.jsonl is
 * refused with a precise problem; an export made before anchors still verifies. Real ledgers, real exports, the
 * CLI's own main().
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { main as cli } from '../../../scripts/verify-export'
import type { Ledger } from '../../../src/main/ledger/sqlite/index'
import { auditHashOfText } from '../../../src/main/ledger/model/audit-hash'
import { canonicalJson } from '../../../src/main/ledger/model/canonical-json'
import { compareWithOlderExport } from '../../../src/main/records/against'
import { anchorSeqs, ANCHORS_FILE, ANCHORS_MAX_BYTES } from '../../../src/main/records/anchors'
import { auditLine } from '../../../src/main/records/audit-member'
import type { ExportResult } from '../../../src/main/records/index'
import { verifyExport } from '../../../src/main/records/verify'
import type { AuditEntry } from '../../../src/shared/withdrawal-record'
import { observeOther, unrelated } from './activity'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, fileIn, fixHash, readManifest, resign, SIGNER, track, writeManifest } from './helpers'

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    const code = await cli(args)
    return { code, out: log.mock.calls.flat().join('\n') }
  } finally {
    log.mockRestore()
  }
}
afterEach(() => vi.restoreAllMocks())

const OURS = { profile: 'producao' }
const headOf = (res: ExportResult): { seq: number; hash: string } =>
  (readManifest(res) as unknown as { auditHead: { seq: number; hash: string } }).auditHead
const entriesOf = (file: string): AuditEntry[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEntry)

/** Records of two profiles; exports here hold only `producao`'s, so `outro`'s entries are in none of them. */
function twoProfiles(): Ledger {
  const { ledger } = seededLedger([...makeRecords(3), ...makeRecords(2, { profile: 'outro', seed: 77 })])
  return track(ledger)
}

/**
 * What someone who can write the ledger file and holds the signing key does: entry 1's details rewritten, every
 * hash and link after it recomputed, the head moved. The app's chain check then passes.
 */
function rewriteLedger(file: string): void {
  const db = new DatabaseSync(file)
  try {
    const rows = db.prepare('SELECT * FROM audit_log ORDER BY seq').all()
    // The append-only triggers are no obstacle to whoever can write the file: dropped, then put back.
    const triggers = db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('audit_log', 'audit_head')`,
      )
      .all()
    for (const t of triggers) db.exec(`DROP TRIGGER ${String(t.name)}`)
    let prev: string | null = null
    const update = db.prepare('UPDATE audit_log SET details = ?, prev_hash = ?, hash = ? WHERE seq = ?')
    db.exec('BEGIN')
    for (const row of rows) {
      const seq = Number(row.seq)
      const details =
        seq === 1
          ? canonicalJson({ ...(JSON.parse(String(row.details)) as object), note: 'rewritten' })
          : String(row.details)
      const prevHash = prev ?? String(row.prev_hash)
      const stateHash = typeof row.state_hash === 'string' ? row.state_hash : undefined
      const e = {
        seq,
        at: String(row.at),
        operator: String(row.operator),
        action: String(row.action),
        subject: row.subject === null ? null : String(row.subject),
        prevHash,
        ...(stateHash ? { stateHash } : {}),
      }
      const hash = auditHashOfText(e, details)
      update.run(details, prevHash, hash, seq)
      prev = hash
    }
    db.prepare('UPDATE audit_head SET hash = ? WHERE id = 1').run(prev)
    db.exec('COMMIT')
    for (const t of triggers) db.exec(String(t.sql))
  } finally {
    db.close()
  }
}

/** Edits an export's member, then fixes its hash and re-signs with the same key (as a key holder would). */
function editMember(res: ExportResult, name: string, edit: (text: string) => string): void {
  fs.writeFileSync(fileIn(res, name), edit(fs.readFileSync(fileIn(res, name), 'utf8')))
  const m = readManifest(res)
  fixHash(res, m, name)
  resign(m, SIGNER)
  writeManifest(res, m)
}

/** The export as made before anchors: no anchors.jsonl, not listed, re-signed. */
function withoutAnchors(res: ExportResult): void {
  fs.rmSync(fileIn(res, ANCHORS_FILE))
  const m = readManifest(res)
  m.files = m.files.filter((f) => f['format'] !== 'anchors')
  resign(m, SIGNER)
  writeManifest(res, m)
}

const audits = (v: Awaited<ReturnType<typeof verifyExport>>): string[] =>
  v.problems.map((p) => `${p.file} [${p.check}] ${p.detail}`)

describe('anchors: a newer export proves it extends an older one', { timeout: 60_000 }, () => {
  it('an older head about no exported record, with a deposit, a run, an observation and an export between: proven', async () => {
    const l = twoProfiles()
    observeOther(l, 1)
    const older = await exportTo(l, { formats: ['json'], filter: OURS })
    const olderHead = headOf(older)
    // The older head is the other profile's observation: not in any of these exports' audit.jsonl.
    expect(entriesOf(fileIn(older, 'audit.jsonl')).some((e) => e.seq === olderHead.seq)).toBe(false)
    unrelated(l, 11)
    const between = await exportTo(l, { formats: ['json'], filter: OURS })
    unrelated(l, 12)
    const newer = await exportTo(l, { formats: ['json'], filter: OURS })

    // The newer export's anchors: both earlier heads and its own, the older head's entry in full.
    const anchors = entriesOf(fileIn(newer, ANCHORS_FILE))
    expect(anchors.map((e) => e.seq)).toEqual([olderHead.seq, headOf(between).seq, headOf(newer).seq])
    expect(anchors[0]).toMatchObject({
      seq: olderHead.seq,
      hash: olderHead.hash,
      subject: expect.any(String),
    })
    // The ledger's records.exported entries now name the export's head.
    const exported = l.audit({ limit: 100 }).rows.filter((e) => e.action === 'records.exported')
    expect(exported.map((e) => e.details['auditHead'])).toContainEqual(olderHead)

    const r = await run(newer.manifestPath, '--against', older.folder)
    expect(r.out).not.toContain('note     against')
    expect(r.code).toBe(0)
    const n = await verifyExport(newer.manifestPath, { fixedHashes: true })
    const o = await verifyExport(older.manifestPath, { fixedHashes: true })
    expect(compareWithOlderExport(n, o)).toMatchObject({ verdict: 'extends', problems: [] })
    // The same pair without the newer export's anchors (made before them): amber, as before issue #12.
    withoutAnchors(newer)
    const bare = await verifyExport(newer.manifestPath, { fixedHashes: true })
    expect(bare.ok).toBe(true)
    expect(compareWithOlderExport(bare, o).verdict).toBe('head_not_carried')
    const noted = await run(newer.manifestPath, '--against', older.folder)
    expect(noted.code).toBe(0)
    expect(noted.out).toContain(`note     against  this export does not carry entry ${olderHead.seq}`)
  })

  it('an older export made before anchors still verifies, and a newer one proves it extends it', async () => {
    const l = twoProfiles()
    const older = await exportTo(l, { formats: ['json'], filter: OURS })
    withoutAnchors(older)
    expect(await verifyExport(older.manifestPath)).toMatchObject({ ok: true, problems: [] })
    unrelated(l, 13)
    const newer = await exportTo(l, { formats: ['json'], filter: OURS })
    const r = await run(newer.manifestPath, '--against', older.manifestPath)
    expect(r.code).toBe(0)
    expect(r.out).not.toContain('note     against')
  })

  it('an entry holding a secret is never an anchor (left out, not redacted); the export still verifies', async () => {
    const secret = 'client-secret-0123456789'
    const l = twoProfiles()
    l.appendAudit({ operator: 'ana', action: 'note', details: { text: `colado por engano: ${secret}` } })
    const older = await exportTo(l, { formats: ['json'], filter: OURS, secrets: [secret] })
    observeOther(l, 21)
    const newer = await exportTo(l, { formats: ['json'], filter: OURS, secrets: [secret] })
    for (const res of [older, newer]) {
      expect(fs.readFileSync(fileIn(res, ANCHORS_FILE), 'utf8')).not.toContain(secret)
      expect(await verifyExport(res.manifestPath)).toMatchObject({ ok: true })
    }
    // The older head (the entry with the secret) cannot be shown: amber, never green.
    expect(entriesOf(fileIn(older, ANCHORS_FILE))).toEqual([])
    expect(entriesOf(fileIn(newer, ANCHORS_FILE)).map((e) => e.seq)).toEqual([headOf(newer).seq])
    const c = compareWithOlderExport(
      await verifyExport(newer.manifestPath, { fixedHashes: true }),
      await verifyExport(older.manifestPath, { fixedHashes: true }),
    )
    expect(c.verdict).toBe('head_not_carried')
  })

  it('records.exported entries from before issue #12 (no auditHead) anchor the entry just before them', () => {
    const at = (seq: number, details: object) => ({ seq, detailsText: canonicalJson(details) })
    const head = { seq: 40, hash: 'h' }
    expect(
      anchorSeqs(
        [
          at(5, { folder: '/x' }),
          at(9, { folder: '/y', auditHead: { seq: 7, hash: 'a' } }),
          // Not usable as a head: fall back to the entry before.
          at(12, { auditHead: { seq: 'eleven', hash: 'b' } }),
          at(20, { auditHead: { seq: 99, hash: 'c' } }),
          at(1, {}),
        ],
        head,
      ),
    ).toEqual([4, 7, 11, 40])
    // seq 99 is past the head: never anchored; an empty ledger anchors nothing.
    expect(anchorSeqs([], { seq: 0, hash: 'g' })).toEqual([])
  })

  it('a ledger rewritten before the older head, re-hashed and re-signed with the same key: diverged', async () => {
    const { ledger, file } = seededLedger([
      ...makeRecords(3),
      ...makeRecords(2, { profile: 'outro', seed: 77 }),
    ])
    track(ledger)
    observeOther(ledger, 1)
    // An export before the older one: the older one's anchors carry its head too.
    const first = headOf(await exportTo(ledger, { formats: ['json'], filter: OURS }))
    observeOther(ledger, 2)
    const older = await exportTo(ledger, { formats: ['json'], filter: OURS })
    const olderHead = headOf(older)
    expect(entriesOf(fileIn(older, ANCHORS_FILE)).map((e) => e.seq)).toEqual([first.seq, olderHead.seq])
    unrelated(ledger, 14)
    rewriteLedger(file)
    expect(ledger.verifyAuditChain().ok).toBe(true)
    const newer = await exportTo(ledger, { formats: ['json'], filter: OURS })
    const n = await verifyExport(newer.manifestPath, { fixedHashes: true })
    expect(n.ok).toBe(true)
    const c = compareWithOlderExport(n, await verifyExport(older.manifestPath, { fixedHashes: true }))
    expect(c.verdict).toBe('diverged')
    expect(c.problems).toContain(
      `entry ${olderHead.seq} (the older export's head) differs: history was rewritten`,
    )
    // Every seq both show is compared, the older export's other anchors included.
    expect(c.problems).toContain(`entry ${first.seq} differs from the older export's: history was rewritten`)
    const r = await run(newer.manifestPath, '--against', older.folder)
    expect(r.code).toBe(1)
    expect(r.out).toContain(`[audit]  entry ${olderHead.seq} (the older export's head) differs`)
  })
})

describe('anchors.jsonl tampered or hostile: refused with a precise problem', { timeout: 60_000 }, () => {
  async function twoExports(): Promise<{ l: Ledger; first: ExportResult; res: ExportResult }> {
    const l = twoProfiles()
    observeOther(l, 1)
    const first = await exportTo(l, { formats: ['json'], filter: OURS })
    observeOther(l, 2)
    observeOther(l, 3)
    return { l, first, res: await exportTo(l, { formats: ['json'], filter: OURS }) }
  }
  const lines = (text: string): AuditEntry[] =>
    text
      .split('\n')
      .filter(Boolean)
      .map((s) => JSON.parse(s) as AuditEntry)
  const rehash = (e: AuditEntry): AuditEntry => {
    const { hash: _h, ...rest } = e
    return { ...e, hash: auditHashOfText(rest, canonicalJson(e.details)) }
  }

  it('an anchor whose content no longer matches its hash', async () => {
    const { res } = await twoExports()
    editMember(res, ANCHORS_FILE, (t) => {
      const es = lines(t)
      es[0] = { ...es[0]!, operator: 'mallory' }
      return es.map(auditLine).join('')
    })
    const seq = lines(fs.readFileSync(fileIn(res, ANCHORS_FILE), 'utf8'))[0]!.seq
    const v = await verifyExport(res.manifestPath)
    expect(audits(v)).toEqual([`anchors.jsonl [audit] anchor ${seq}: its hash does not match its content`])
  })

  it('an anchor not in canonical form (same content, another layout)', async () => {
    const { res } = await twoExports()
    const seq = lines(fs.readFileSync(fileIn(res, ANCHORS_FILE), 'utf8'))[0]!.seq
    editMember(res, ANCHORS_FILE, (t) => t.replace(/^\{"action"/, '{ "action"'))
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [audit] anchor ${seq}: not in canonical form`,
    ])
  })

  it('an anchor past the head, a repeated seq, a missing head, and one that differs from audit.jsonl', async () => {
    const { res } = await twoExports()
    const head = headOf(res)
    const text = fs.readFileSync(fileIn(res, ANCHORS_FILE), 'utf8')
    const es = lines(text)
    // Past the head: a well-formed entry (its own hash right) at head + 5.
    editMember(res, ANCHORS_FILE, () =>
      [...es, rehash({ ...es.at(-1)!, seq: head.seq + 5 })].map(auditLine).join(''),
    )
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [audit] anchor ${head.seq + 5}: after the manifest's audit head (${head.seq})`,
    ])
    // The first anchor twice.
    editMember(res, ANCHORS_FILE, () => [es[0]!, ...es].map(auditLine).join(''))
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [audit] anchor ${es[0]!.seq}: seq repeated`,
    ])
    // Another entry at the head's seq (well-formed, its own hash right).
    const other = rehash({ ...es.at(-1)!, operator: 'mallory' })
    editMember(res, ANCHORS_FILE, () => [...es.slice(0, -1), other].map(auditLine).join(''))
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [audit] anchor ${head.seq}: is not the manifest's audit head`,
    ])
    // An entry audit.jsonl carries, forged (its hash recomputed) into the anchors.
    const carried = entriesOf(fileIn(res, 'audit.jsonl')).find((e) => !es.some((a) => a.seq === e.seq))!
    const forged = rehash({ ...carried, operator: 'mallory' })
    const withForged = [...es, forged].sort((a, b) => a.seq - b.seq)
    editMember(res, ANCHORS_FILE, () => withForged.map(auditLine).join(''))
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [audit] anchor ${carried.seq}: differs from entry ${carried.seq} in audit.jsonl`,
    ])
    // Untouched again: verifies.
    editMember(res, ANCHORS_FILE, () => text)
    expect(await verifyExport(res.manifestPath)).toMatchObject({ ok: true })
  })

  it('anchors.jsonl as a link, a FIFO, huge, or listed under another name: refused unread', async () => {
    const { res } = await twoExports()
    const file = fileIn(res, ANCHORS_FILE)
    const copy = `${file}.bak`
    fs.renameSync(file, copy)
    fs.symlinkSync(copy, file)
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      'anchors.jsonl [missing] is a symbolic link (links are not followed)',
    ])
    fs.rmSync(file)
    execFileSync('mkfifo', [file])
    const t0 = performance.now()
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      'anchors.jsonl [missing] is a named pipe (FIFO), not a regular file',
    ])
    expect(performance.now() - t0).toBeLessThan(3000)
    fs.rmSync(file)
    // Sparse: the size alone refuses it, before a byte is read.
    fs.writeFileSync(file, '')
    fs.truncateSync(file, ANCHORS_MAX_BYTES + 1)
    expect(audits(await verifyExport(res.manifestPath))).toEqual([
      `anchors.jsonl [hash] is ${ANCHORS_MAX_BYTES + 1} bytes, more than the ${ANCHORS_MAX_BYTES} a verifier reads`,
    ])
    fs.rmSync(file)
    fs.renameSync(copy, file)
    // A manifest that claims it huge, or names it otherwise, is not a manifest.
    const m = readManifest(res)
    const entry = m.files.find((f) => f['format'] === 'anchors')!
    entry['bytes'] = ANCHORS_MAX_BYTES + 1
    resign(m, SIGNER)
    writeManifest(res, m)
    expect(audits(await verifyExport(res.manifestPath)).join('\n')).toMatch(
      /^manifest\.json \[schema\] files\.\d+\.bytes: more than 8388608 bytes/m,
    )
    entry['bytes'] = fs.statSync(file).size
    entry['name'] = 'anchors.json'
    resign(m, SIGNER)
    writeManifest(res, m)
    expect(audits(await verifyExport(res.manifestPath)).join('\n')).toMatch(
      /^manifest\.json \[schema\] files\.\d+\.name: /m,
    )
  })
})
