/**
 * Every tampering an auditor could meet, each reported with the right file and check. A shared pristine export
 * is copied per test so each test tampers with its own.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  keyFingerprint,
  verifyExport,
  type ExportResult,
  type ExportVerification,
} from '../../../src/main/records/index'
import {
  COLUMNS_BEFORE_REFERENCES,
  CSV_COLUMNS,
  LEGACY_CSV_COLUMNS,
  PEOPLE_V1_CSV_COLUMNS,
  PT_HEADER_V1,
} from '../../../src/main/records/columns'
import { BOM, csvHeader, csvLine } from '../../../src/main/records/csv'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import {
  exportTo,
  fileIn,
  fixHash,
  flipByte,
  OTHER_SIGNER,
  readManifest,
  resign,
  rowsInOrder,
  SIGNER,
  writeManifest,
} from './helpers'

let pristine: ExportResult

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-tamper-'))
  const { ledger } = seededLedger(makeRecords(120), dir)
  try {
    pristine = await exportTo(ledger, { dir })
  } finally {
    ledger.close()
  }
  return () => fs.rmSync(dir, { recursive: true, force: true })
})

/** A private copy of the pristine export. */
function copy(): ExportResult {
  const folder = path.join(tempDir('records-tampered-'), path.basename(pristine.folder))
  fs.cpSync(pristine.folder, folder, { recursive: true })
  return {
    ...pristine,
    folder,
    manifestPath: path.join(folder, 'manifest.json'),
    files: pristine.files.map((f) => path.join(folder, path.basename(f))),
  }
}

const checks = (v: ExportVerification): string[] =>
  [...new Set(v.problems.map((p) => `${p.file}:${p.check}`))].sort()

function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\r\n')
}

/**
 * The data rows of an export's CSV as an export made before issue #26 wrote them (LEGACY_CSV_COLUMNS' order), or
 * before issue #14 (only its first COLUMNS_BEFORE_REFERENCES columns): cells copied as they are in the file
 * (already neutralised; quoted again).
 */
function legacyRows(file: string, delimiter: ';' | ',', columns = LEGACY_CSV_COLUMNS.length): string[] {
  return rowsInOrder(file, delimiter, CSV_COLUMNS, LEGACY_CSV_COLUMNS.slice(0, columns))
}

const rowsBeforeReferences = (file: string, delimiter: ';' | ','): string[] =>
  legacyRows(file, delimiter, COLUMNS_BEFORE_REFERENCES)

describe('verifyExport on a tampered export', () => {
  it('an untouched export verifies', async () => {
    const v = await verifyExport(copy().manifestPath)
    expect(v.ok).toBe(true)
    expect(v.problems).toEqual([])
    expect(v.signerFingerprint).toBe(keyFingerprint(SIGNER.publicKeyPem))
    expect(v.manifest?.rowCount).toBe(120)
  })

  it.each([
    ['records.csv', 0.5],
    ['records.json', 0.5],
    ['report.html', 0.5],
    ['records.csv', -1],
    ['records.json', 0],
    ['report.html', -3],
  ])('one flipped byte in %s (at %d) is a hash problem on that file only', async (name, where) => {
    const ex = copy()
    const file = fileIn(ex, name)
    flipByte(file, where >= 0 && where < 1 ? Math.floor(fs.statSync(file).size * where) : where)
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(false)
    expect(v.problems.filter((p) => p.file !== name)).toEqual([])
    expect(v.problems).toContainEqual(expect.objectContaining({ file: name, check: 'hash' }))
  })

  it('a flipped byte inside a signed value of the manifest breaks the signature', async () => {
    const ex = copy()
    const text = fs.readFileSync(ex.manifestPath, 'utf8')
    flipByte(ex.manifestPath, text.indexOf('0.1.0-test') + 2)
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['manifest.json:signature'])
  })

  it('a flipped byte in a file hash of the manifest: signature, and that file no longer matches', async () => {
    const ex = copy()
    const m = readManifest(ex)
    const sha = m.files.find((f) => f.name === 'records.json')!.sha256 as string
    const text = fs.readFileSync(ex.manifestPath, 'utf8')
    const at = text.indexOf(sha) + 10
    fs.writeFileSync(ex.manifestPath, text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1))
    expect(checks(await verifyExport(ex.manifestPath))).toEqual([
      'manifest.json:signature',
      'records.json:hash',
    ])
  })

  it('a changed byte outside the signed values (layout) is still reported', async () => {
    const ex = copy()
    const text = fs.readFileSync(ex.manifestPath, 'utf8')
    fs.writeFileSync(ex.manifestPath, text.replace('\n  "appVersion"', '\n\t"appVersion"'))
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['manifest.json:schema'])
    expect(v.problems[0]?.detail).toMatch(/layout/)
    // An escape that decodes to the same text, and a duplicate key, likewise.
    const ex2 = copy()
    fs.writeFileSync(ex2.manifestPath, text.replace('"0.1.0-test"', '"0.1.0\\u002dtest"'))
    expect(checks(await verifyExport(ex2.manifestPath))).toEqual(['manifest.json:schema'])
    const ex3 = copy()
    fs.writeFileSync(ex3.manifestPath, text.replace('\n  "appVersion"', '\n  "rowCount": 1,\n  "appVersion"'))
    expect(checks(await verifyExport(ex3.manifestPath))).toContain('manifest.json:schema')
  })

  it('a deleted CSV row with the hash fixed but not re-signed: signature, row count and totals', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    const l = lines(csv)
    l.splice(5, 1)
    fs.writeFileSync(csv, l.join('\r\n'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['manifest.json:signature', 'records.csv:row_count', 'records.csv:totals'])
    expect(v.problems.find((p) => p.check === 'row_count')?.detail).toBe(
      '119 data rows, manifest rowCount is 120',
    )
  })

  it('a deleted CSV row, re-signed with another key: row count, totals, and a different signer', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    const l = lines(csv)
    l.splice(7, 1)
    fs.writeFileSync(csv, l.join('\r\n'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, OTHER_SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['records.csv:row_count', 'records.csv:totals'])
    expect(v.signerFingerprint).toBe(keyFingerprint(OTHER_SIGNER.publicKeyPem))
    expect(v.signerFingerprint).not.toBe(keyFingerprint(SIGNER.publicKeyPem))
    const expecting = await verifyExport(ex.manifestPath, {
      expectFingerprint: keyFingerprint(SIGNER.publicKeyPem),
    })
    expect(checks(expecting)).toEqual([
      'manifest.json:signature',
      'records.csv:row_count',
      'records.csv:totals',
    ])
  })

  it('reordered JSON records: hash only (same rows, same totals)', async () => {
    const ex = copy()
    const json = fileIn(ex, 'records.json')
    const l = fs.readFileSync(json, 'utf8').split('\n')
    ;[l[3], l[4]] = [l[4]!, l[3]!]
    fs.writeFileSync(json, l.join('\n'))
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.json:hash'])
  })

  it('an edited total in the manifest: signature and totals (manifest, CSV and JSON disagree)', async () => {
    const ex = copy()
    const m = readManifest(ex)
    const totals = m.totals as Array<{ count: number; payoutCents: number }>
    totals[0]!.payoutCents += 100
    writeManifest(ex, m)
    // manifest.json:totals: its totals by meaning no longer follow from the edited status totals.
    expect(checks(await verifyExport(ex.manifestPath))).toEqual([
      'manifest.json:signature',
      'manifest.json:totals',
      'records.csv:totals',
      'records.json:totals',
    ])
    totals[0]!.count += 1
    writeManifest(ex, m)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual([
      'manifest.json:signature',
      'manifest.json:totals',
      'records.csv:totals',
      'records.json:totals',
    ])
  })

  it('totals by meaning edited to count a refunded record as paid, re-signed: totals on the manifest', async () => {
    const ex = copy()
    const m = readManifest(ex)
    const meaning = m.meaningTotals as Record<string, { count: number; payoutCents: number }>
    expect(meaning.returned!.count).toBeGreaterThan(0)
    meaning.paid!.count += 1
    meaning.paid!.payoutCents += 500
    meaning.returned!.count -= 1
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['manifest.json:totals'])
    expect(v.problems.map((p) => p.detail).join(' ')).toContain('meaning total "paid"')
  })

  it('a manifest from before totals by meaning and refund fees (fields absent, re-signed) still verifies', async () => {
    const ex = copy()
    const m = readManifest(ex)
    delete m.meaningTotals
    const totals = m.totals as Array<Record<string, unknown>>
    expect(totals.some((t) => (t.refundFeeCents as number) > 0)).toBe(true)
    for (const t of totals) delete t.refundFeeCents
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(v.problems).toEqual([])
  })

  it('an edited refund fee in the manifest, re-signed: totals on the JSON (the CSV carries no refund fee)', async () => {
    const ex = copy()
    const m = readManifest(ex)
    const totals = m.totals as Array<{ refundFeeCents: number }>
    const withFee = totals.find((t) => t.refundFeeCents > 0)!
    withFee.refundFeeCents += 100
    const meaning = m.meaningTotals as { feesWithheldCents: number }
    meaning.feesWithheldCents += 100
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.json:totals'])
  })

  it('re-signed with another key, nothing else changed: valid, but the fingerprint differs', async () => {
    const ex = copy()
    const m = readManifest(ex)
    resign(m, OTHER_SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(true)
    expect(v.signerFingerprint).toBe(keyFingerprint(OTHER_SIGNER.publicKeyPem))
    const expecting = await verifyExport(ex.manifestPath, {
      expectFingerprint: keyFingerprint(SIGNER.publicKeyPem),
    })
    expect(checks(expecting)).toEqual(['manifest.json:signature'])
    const right = await verifyExport(ex.manifestPath, {
      expectFingerprint: keyFingerprint(OTHER_SIGNER.publicKeyPem).toUpperCase().replace(/ /g, ':'),
    })
    expect(right.ok).toBe(true)
  })

  it('an edited JSON amount, hash fixed and re-signed with another key: totals on the JSON', async () => {
    const ex = copy()
    const json = fileIn(ex, 'records.json')
    const text = fs.readFileSync(json, 'utf8')
    fs.writeFileSync(
      json,
      text.replace(/"payoutAmountCents":(\d+)/, (_, n: string) => `"payoutAmountCents":${Number(n) + 1}`),
    )
    const m = readManifest(ex)
    fixHash(ex, m, 'records.json')
    resign(m, OTHER_SIGNER)
    writeManifest(ex, m)
    // …and the record no longer matches the state its audit entry recorded.
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.json:audit', 'records.json:totals'])
  })

  it('a removed file is missing; the others still verify', async () => {
    const ex = copy()
    fs.rmSync(fileIn(ex, 'report.html'))
    const v = await verifyExport(ex.manifestPath)
    expect(v.problems).toEqual([
      { file: 'report.html', check: 'missing', detail: 'listed in the manifest but not in the folder' },
    ])
  })

  it('a missing or unreadable manifest', async () => {
    const ex = copy()
    fs.rmSync(ex.manifestPath)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['manifest.json:missing'])
    fs.writeFileSync(ex.manifestPath, '{"schema":')
    const v = await verifyExport(ex.folder)
    expect(checks(v)).toEqual(['manifest.json:schema'])
    expect(v.manifest).toBeNull()
    expect(v.unlisted).toEqual(['anchors.jsonl', 'audit.jsonl', 'records.csv', 'records.json', 'report.html'])
  })

  it('a manifest pointing outside its folder is refused (schema), nothing outside is read', async () => {
    const ex = copy()
    const m = readManifest(ex)
    m.files[0]!.name = '../records.csv'
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(v.problems).toContainEqual(expect.objectContaining({ file: 'manifest.json', check: 'schema' }))
    expect(v.problems.some((p) => p.file.includes('..'))).toBe(false)
  })

  it('a pt-BR CSV with the headers of older exports (API names) still verifies; any other header does not', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    const rest = [...rowsBeforeReferences(csv, ';'), '']
    expect(lines(csv)[0]).toContain('Código da recusa')
    expect(lines(csv)[0]).not.toMatch(/messageCode|X-Request-ID|saque/)
    // The current header is a different one: the verifier never takes it for an older one.
    expect(csvHeader('pt-BR').length).toBeGreaterThan(COLUMNS_BEFORE_REFERENCES)
    fs.writeFileSync(csv, BOM + [csvLine(PT_HEADER_V1, ';').slice(0, -2), ...rest].join('\r\n'))
    expect(lines(csv)[0]).toContain('X-Request-ID')
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect((await verifyExport(ex.manifestPath)).problems).toEqual([])

    // One legacy label changed: neither header, so a schema problem (and no totals recomputed).
    const mixed = [...PT_HEADER_V1]
    mixed[1] = 'ID do pagamento'
    fs.writeFileSync(csv, BOM + [csvLine(mixed, ';').slice(0, -2), ...rest].join('\r\n'))
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.csv:schema'])

    // The words header of exports made before the references were appended (issue #14) still verifies too.
    fs.writeFileSync(
      csv,
      BOM +
        [
          csvLine(csvHeader('pt-BR', LEGACY_CSV_COLUMNS).slice(0, COLUMNS_BEFORE_REFERENCES), ';').slice(
            0,
            -2,
          ),
          ...rest,
        ].join('\r\n'),
    )
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect((await verifyExport(ex.manifestPath)).problems).toEqual([])
    // …but not with the new columns' cells missing under the current header: every row is malformed, so the
    // totals recomputed from the well-formed rows (none) differ too.
    fs.writeFileSync(csv, BOM + [csvLine(csvHeader('pt-BR'), ';').slice(0, -2), ...rest].join('\r\n'))
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.csv:schema', 'records.csv:totals'])
  })

  it('a CSV in the order of exports made before issue #26 (codes first) still verifies; its rows shuffled do not', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    // Today's file starts with a person's columns.
    expect(lines(csv)[0]?.startsWith(`${BOM}"Data do Pix";"Criado em";"Nome do favorecido"`)).toBe(true)
    const rows = legacyRows(csv, ';')
    const legacyHeader = csvLine(csvHeader('pt-BR', LEGACY_CSV_COLUMNS), ';').slice(0, -2)
    expect(legacyHeader.startsWith('"ID local";')).toBe(true)
    fs.writeFileSync(csv, BOM + [legacyHeader, ...rows, ''].join('\r\n'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect((await verifyExport(ex.manifestPath)).problems).toEqual([])

    // Today's rows under the older header: the status and amounts are read where the older order has them, so
    // the totals recomputed differ (a file cannot pass under a header that does not describe it).
    const todays = fs.readFileSync(fileIn(pristine, 'records.csv'), 'utf8').slice(1).split('\r\n').slice(1)
    fs.writeFileSync(csv, BOM + [legacyHeader, ...todays].join('\r\n'))
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect((await verifyExport(ex.manifestPath)).ok).toBe(false)
  })

  it('a CSV in the people’s order before the Lote columns (issue #26, first round) still verifies; today’s rows under it do not', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    const rows = rowsInOrder(csv, ';', CSV_COLUMNS, PEOPLE_V1_CSV_COLUMNS)
    const header = csvLine(csvHeader('pt-BR', PEOPLE_V1_CSV_COLUMNS), ';').slice(0, -2)
    expect(header).not.toContain('Lote')
    fs.writeFileSync(csv, BOM + [header, ...rows, ''].join('\r\n'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect((await verifyExport(ex.manifestPath)).problems).toEqual([])

    // Today's rows (two columns more) under that header: every row is malformed, the totals differ.
    const todays = fs.readFileSync(fileIn(pristine, 'records.csv'), 'utf8').slice(1).split('\r\n').slice(1)
    fs.writeFileSync(csv, BOM + [header, ...todays].join('\r\n'))
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    expect(checks(await verifyExport(ex.manifestPath))).toEqual(['records.csv:schema', 'records.csv:totals'])
  })

  it('extra files are listed as unlisted, not as problems', async () => {
    const ex = copy()
    fs.writeFileSync(path.join(ex.folder, 'notes.txt'), 'auditor notes')
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(true)
    expect(v.unlisted).toEqual(['notes.txt'])
  })

  it('invalid UTF-8, a missing BOM, a wrong CSV header, a JSON record off-schema: schema problems', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    fs.writeFileSync(csv, fs.readFileSync(csv).subarray(3))
    const json = fileIn(ex, 'records.json')
    fs.writeFileSync(json, fs.readFileSync(json, 'utf8').replace('"localState":"', '"localState":"x'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    fixHash(ex, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    // The off-schema record still counts as a row; its amounts leave the totals.
    expect(checks(v)).toEqual([
      'records.csv:schema',
      'records.json:audit',
      'records.json:schema',
      'records.json:totals',
    ])
    expect(v.problems.find((p) => p.file === 'records.csv')?.detail).toBe('no UTF-8 byte order mark')
    const html = fileIn(ex, 'report.html')
    const buf = fs.readFileSync(html)
    buf[100] = 0xff
    fs.writeFileSync(html, buf)
    expect(checks(await verifyExport(ex.manifestPath))).toContain('report.html:schema')
  })

  it('a CSV header that is not the declared locale’s columns: schema, totals not recomputed', async () => {
    const ex = copy()
    const csv = fileIn(ex, 'records.csv')
    fs.writeFileSync(csv, fs.readFileSync(csv, 'utf8').replace('"Situação (código)";', '"Situação";'))
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(checks(v)).toEqual(['records.csv:schema'])
    const status = CSV_COLUMNS.findIndex((c) => c.id === 'status') + 1
    expect(v.problems[0]?.detail).toBe(`header differs from the pt-BR columns at column ${status}`)
  })

  it('every problem of a badly damaged export is reported at once', async () => {
    const ex = copy()
    flipByte(fileIn(ex, 'records.csv'), 200)
    flipByte(fileIn(ex, 'records.json'), 300)
    fs.rmSync(fileIn(ex, 'report.html'))
    flipByte(ex.manifestPath, fs.readFileSync(ex.manifestPath, 'utf8').indexOf('Produção'))
    const got = checks(await verifyExport(ex.manifestPath))
    for (const want of [
      'manifest.json:signature',
      'records.csv:hash',
      'records.json:hash',
      'report.html:missing',
    ]) {
      expect(got).toContain(want)
    }
  })
})
