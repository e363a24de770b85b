import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../src/main/ledger/sqlite/index'
import { CSV_COLUMNS } from '../../../src/main/records/columns'
import { exportFolderStamp } from '../../../src/main/records/export'
import { parseCsv, unneutralise } from '../../../src/main/records/csv'
import { REPORT_CSP } from '../../../src/main/records/report-assets'
import {
  generateSigningKeyPair,
  keyFingerprint,
  RECORDS_SCHEMA,
  SigningKeyError,
  verifyExport,
} from '../../../src/main/records/index'
import { manifestSchema as manifestSchemaForTests } from '../../../src/main/records/manifest'
import { makeRecords, nastyRecords, seededLedger, tempDir } from './fixtures'
import { EXPORTED_AT, exportTo, fileIn, readManifest, SIGNER, track } from './helpers'
import { displayStatus, sortTotals } from '../../../src/main/records/totals'
import { payeeNameOf } from '../../../src/shared/payee-name'
import { statusInWords } from '../../../src/shared/status-words'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

function csvRows(file: string, d: ';' | ','): string[][] {
  const buf = fs.readFileSync(file)
  expect([...buf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const rows: string[][] = []
  parseCsv(buf.subarray(3), d, (row) => rows.push(Array.from({ length: row.length }, (_, i) => row.cell(i))))
  return rows
}

/**
 * How a spreadsheet reads CSV told `sep`: a quote counts only at the start of a cell (then "" is a quote and the
 * next lone quote ends it; what follows up to the separator is appended as is). Every cell of the file, flat.
 */
function spreadsheetCells(text: string, sep: string): string[] {
  const cells: string[] = []
  let i = 0
  while (i < text.length) {
    let cell = ''
    if (text[i] === '"') {
      i += 1
      while (i < text.length) {
        if (text[i] === '"') {
          if (text[i + 1] !== '"') {
            i += 1
            break
          }
          i += 1
        }
        cell += text[i]
        i += 1
      }
    }
    while (i < text.length && text[i] !== sep && text[i] !== '\n' && text[i] !== '\r') cell += text[i++]
    cells.push(cell)
    if (text[i] === '\r' && text[i + 1] === '\n') i += 1
    i += 1
  }
  return cells
}

const col = (id: string): number => CSV_COLUMNS.findIndex((c) => c.id === id)

describe('exportFolderStamp: the folder name in local time (issue #26)', () => {
  it('writes the wall-clock time of the given zone and its offset', () => {
    expect(exportFolderStamp(EXPORTED_AT, -180)).toBe('20250601T090000-0300')
    expect(exportFolderStamp(EXPORTED_AT, 0)).toBe('20250601T120000+0000')
    expect(exportFolderStamp(EXPORTED_AT, 330)).toBe('20250601T173000+0530')
    // Late evening in São Paulo is the previous day there, not UTC's.
    expect(exportFolderStamp(new Date('2025-06-01T02:30:05Z'), -180)).toBe('20250531T233005-0300')
  })

  it("defaults to the computer's own zone", () => {
    const at = new Date('2025-01-15T10:00:00Z')
    expect(exportFolderStamp(at)).toBe(exportFolderStamp(at, -at.getTimezoneOffset()))
  })
})

describe('exportRecords', () => {
  it('writes a new folder with the three files and a signed manifest that verifies', async () => {
    const { ledger } = seededLedger(makeRecords(50))
    track(ledger)
    const headBefore = ledger.auditHead()
    const res = await exportTo(ledger)
    // Named in the computer's local time with its offset (issue #26); exportFolderStamp is tested below.
    expect(path.basename(res.folder)).toBe(`depix-export-producao-${exportFolderStamp(EXPORTED_AT)}`)
    expect(fs.readdirSync(res.folder).sort()).toEqual([
      'anchors.jsonl',
      'audit.jsonl',
      'manifest.json',
      'records.csv',
      'records.json',
      'report.html',
    ])
    expect(res.rowCount).toBe(50)
    expect(res.files.map((f) => path.basename(f))).toEqual([
      'records.csv',
      'records.json',
      'audit.jsonl',
      'anchors.jsonl',
      'report.html',
    ])

    const m = manifestSchemaForTests.parse(readManifest(res))
    expect(m).toMatchObject({
      schema: 'tesouraria-depix/export-manifest',
      // 2: records.json in the state layout (record-line.ts).
      version: 2,
      appVersion: '0.1.0-test',
      profile: { name: 'Produção', network: 'liquid' },
      filter: {},
      exportedAt: EXPORTED_AT.toISOString(),
      rowCount: 50,
      publicKey: SIGNER.publicKeyPem,
    })
    for (const f of m.files) {
      const buf = fs.readFileSync(fileIn(res, f.name))
      expect(f.bytes).toBe(buf.length)
      expect(f.sha256).toBe(createHash('sha256').update(buf).digest('hex'))
    }
    expect(m.auditHead).toEqual(headBefore)
    const v = await verifyExport(res.manifestPath)
    expect(v).toMatchObject({
      ok: true,
      problems: [],
      unlisted: [],
      signerFingerprint: keyFingerprint(SIGNER.publicKeyPem),
    })
  })

  it('never overwrites: a second export in the same second gets its own folder', async () => {
    const { ledger } = seededLedger(makeRecords(3))
    track(ledger)
    const dir = tempDir()
    const a = await exportTo(ledger, { dir })
    const b = await exportTo(ledger, { dir })
    expect(path.basename(b.folder)).toBe(`${path.basename(a.folder)}-2`)
    expect((await verifyExport(a.manifestPath)).ok).toBe(true)
    expect((await verifyExport(b.manifestPath)).ok).toBe(true)
  })

  it('totals are the ledger’s own totalsByStatus, and JSON records are the ledger’s records', async () => {
    const { ledger } = seededLedger(makeRecords(400))
    track(ledger)
    const res = await exportTo(ledger)
    const m = manifestSchemaForTests.parse(readManifest(res))
    expect(m.totals).toEqual(sortTotals(ledger.totalsByStatus()))
    const json = JSON.parse(fs.readFileSync(fileIn(res, 'records.json'), 'utf8')) as {
      schema: string
      version: number
      records: unknown[]
    }
    expect(json.schema).toBe(RECORDS_SCHEMA)
    expect(json.version).toBe(1)
    expect(json.records).toEqual([...ledger.iterate()])
    // UTF-8 as is, one record per line.
    expect(fs.readFileSync(fileIn(res, 'records.json'), 'utf8')).toContain('João')
    expect(fs.readFileSync(fileIn(res, 'records.json'), 'utf8').split('\n')).toHaveLength(400 + 3)
  })

  it('applies the filter, records it in the manifest, and reports progress', async () => {
    const { ledger } = seededLedger(makeRecords(2500))
    track(ledger)
    const progress: Array<[number, number]> = []
    const filter = { statuses: ['sent'], from: '2025-01-02T00:00:00.000Z', limit: 5, offset: 3 }
    const res = await exportTo(ledger, { filter, onProgress: (d, t) => progress.push([d, t]) })
    const expected = ledger.query({ statuses: ['sent'], from: '2025-01-02T00:00:00.000Z', limit: 1 }).total
    expect(expected).toBeGreaterThan(1000)
    expect(res.rowCount).toBe(expected)
    const m = manifestSchemaForTests.parse(readManifest(res))
    expect(m.filter).toEqual({ statuses: ['sent'], from: '2025-01-02T00:00:00.000Z' })
    expect(m.totals.map((t) => t.status)).toEqual(['sent'])
    expect(progress.at(-1)).toEqual([expected, expected])
    expect(progress.length).toBeGreaterThan(1)
    expect(m.createdAtRange.first! >= '2025-01-02').toBe(true)
    expect(fs.readFileSync(fileIn(res, 'report.html'), 'utf8')).toContain(
      '<dd>situação: Pago; criado a partir de 01/01/2025 21:00:00</dd>',
    )
  })

  it('pt-BR CSV: ";" and Brazilian formats; en CSV: "," and ISO formats', async () => {
    const recs = [...makeRecords(5)]
    const { ledger } = seededLedger(recs)
    track(ledger)
    const first = ledger.iterate().next().value!
    const pt = await exportTo(ledger)
    const ptRows = csvRows(fileIn(pt, 'records.csv'), ';')
    // A person's columns first (issue #26).
    expect(ptRows[0]?.slice(0, 3)).toEqual(['Data do Pix', 'Criado em', 'Nome do favorecido'])
    const ptRow = ptRows[1]!
    expect(ptRow[col('created_at')]).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/)
    expect(ptRow[col('requested_amount')]).toMatch(/^\d{1,3}(\.\d{3})*,\d\d$/)
    expect(ptRow[col('local_id')]).toBe(first.localId)

    const en = await exportTo(ledger, { locale: 'en' })
    const enRows = csvRows(fileIn(en, 'records.csv'), ',')
    expect(enRows[0]).toEqual(CSV_COLUMNS.map((c) => c.id))
    expect(enRows[1]?.[col('created_at')]).toBe(first.createdAt)
    expect(enRows[1]?.[col('requested_amount')]).toBe((first.amountCents / 100).toFixed(2))
    expect(manifestSchemaForTests.parse(readManifest(en)).files[0]).toMatchObject({
      delimiter: ',',
      locale: 'en',
    })

    const ptComma = await exportTo(ledger, { csvDelimiter: ',' })
    // "1.234,56" holds the delimiter: quoted, and still verifies.
    expect(fs.readFileSync(fileIn(ptComma, 'records.csv'), 'utf8')).toMatch(/,"\d{1,3}(\.\d{3})*,\d\d",/)
    expect((await verifyExport(ptComma.manifestPath)).ok).toBe(true)
  })

  it("a person's columns: the payee's name, the status in words, the R$ amount; the code stays later", async () => {
    const recs = [...makeRecords(60)]
    const { ledger } = seededLedger(recs)
    track(ledger)
    const byId = new Map(recs.map((r) => [r.localId, r]))
    for (const locale of ['pt-BR', 'en'] as const) {
      const res = await exportTo(ledger, { locale })
      const rows = csvRows(fileIn(res, 'records.csv'), locale === 'pt-BR' ? ';' : ',').slice(1)
      expect(rows.length).toBe(60)
      let named = 0
      for (const row of rows) {
        const r = byId.get(unneutralise(row[col('local_id')]!))!
        const name = payeeNameOf(r)
        if (name !== null) named += 1
        expect(unneutralise(row[col('payee')]!)).toBe(name ?? '')
        const words = statusInWords(displayStatus(r), r.refund !== null, locale)
        expect(row[col('status_text')]).toBe(words)
        expect(row[col('status_text')]).not.toBe(row[col('status')])
        expect(row[col('status_text')]).not.toMatch(/_/)
        expect(row[col('status')]).toBe(displayStatus(r))
      }
      expect(named).toBeGreaterThan(0)
    }
  })

  it('text cells that a spreadsheet would run are neutralised; quotes, delimiters and newlines survive', async () => {
    const recs = nastyRecords()
    const { ledger } = seededLedger(recs)
    track(ledger)
    for (const d of [';', ','] as const) {
      const res = await exportTo(ledger, { csvDelimiter: d })
      const rows = csvRows(fileIn(res, 'records.csv'), d).slice(1)
      expect(rows).toHaveLength(recs.length)
      const byId = new Map(rows.map((r) => [r[col('local_id')], r]))
      for (const rec of recs) {
        const row = byId.get(rec.localId)!
        expect(unneutralise(row[col('receiver_name')]!)).toBe(rec.receiverName)
        expect(unneutralise(row[col('pix_key')]!)).toBe(rec.pixKey)
        expect(unneutralise(row[col('operator')]!)).toBe(rec.operator)
        for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r\n]/)
      }
      expect(byId.get(recs[0]!.localId)![col('receiver_name')]).toBe("'=SUM(A1)")
      expect(byId.get(recs[0]!.localId)![col('status')]).toBe("'=cmd|'_/c_calc'!a0")
      expect(byId.get(recs[1]!.localId)![col('pix_key')]).toBe("'+5511987654321")
      expect(byId.get(recs[2]!.localId)![col('operator')]).toBe("''quoted")
      expect((await verifyExport(res.manifestPath)).ok).toBe(true)
    }
  })

  it('no cell starts a formula when the file is opened with either separator', async () => {
    const hostile = [
      'Ana,=1+1,x',
      'Ana;=1+1;x',
      'a, +SUM(A1)',
      'a;@cmd',
      'x\n=1+1',
      'x\r\n-1',
      'a,\t=1',
      '"=1"',
      'a",=1',
      "a,'=1",
      '＝1;＋2,－3',
    ]
    const recs = nastyRecords().map((r, i) => ({
      ...r,
      receiverName: hostile[i % hostile.length]!,
      pixKey: hostile[(i + 3) % hostile.length]!,
      operator: hostile[(i + 6) % hostile.length]!,
    }))
    const { ledger } = seededLedger(recs)
    track(ledger)
    const formula = /^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r])/
    for (const written of [';', ','] as const) {
      const res = await exportTo(ledger, { csvDelimiter: written })
      const text = fs.readFileSync(fileIn(res, 'records.csv'), 'utf8').slice(1)
      for (const read of [';', ','] as const) {
        const cells = [
          ...spreadsheetCells(text, read),
          // A reader that knows no quotes at all.
          ...text.split(/\r\n|\n|\r/).flatMap((l) => l.split(read).map((c) => c.replace(/^"/, ''))),
        ]
        expect(cells.length).toBeGreaterThan(recs.length * 2)
        const bad = cells.filter((c) => formula.test(c))
        expect(bad, `written with ${written}, read with ${read}`).toEqual([])
      }
      // Read properly, every value comes back.
      const rows = csvRows(fileIn(res, 'records.csv'), written).slice(1)
      const names = new Set(rows.map((r) => unneutralise(r[col('receiver_name')]!)))
      for (const h of hostile.slice(0, recs.length)) expect(names).toContain(h)
      expect((await verifyExport(res.manifestPath)).ok).toBe(true)
    }
  })

  it('the HTML report escapes every value and loads nothing', async () => {
    const { ledger } = seededLedger(nastyRecords())
    track(ledger)
    const res = await exportTo(ledger)
    const html = fs.readFileSync(fileIn(res, 'report.html'), 'utf8')
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&lt;script&gt;alert(0)&lt;/script&gt;')
    expect(html).toContain('Ana &quot;Aspas&quot; Souza')
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`)
    expect(REPORT_CSP).toMatch(
      /^default-src 'none'; style-src ('sha256-[^']+' ?){2}; script-src 'sha256-[^']+';/,
    )
    // Each inline style and script is allowed by its own hash, and nothing else is inline.
    const inline = [...html.matchAll(/<(style|script)>([\s\S]*?)<\/\1>/g)]
    expect(inline.map((m) => m[1])).toEqual(['style', 'style', 'script'])
    for (const m of inline) {
      expect(REPORT_CSP).toContain(`'sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`)
    }
    expect(html).not.toMatch(/\son[a-z]+=/i)
    expect(html).not.toMatch(/\sstyle=/i)
    expect(html).not.toMatch(/<(link|img|iframe|object|embed|base|form)\b/i)
    expect(html).not.toMatch(/\s(src|href|action)=/i)
    expect(html).not.toMatch(/url\(/i)
  })

  it('the private key is never written; credential-looking values in raw bodies are redacted everywhere', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJlLXZhbHVl'
    const clientSecret = 'cs_live_7f3a9b2c1d'
    const [a, b, c] = [...makeRecords(3)]
    const recs = [
      { ...a!, lastRemote: { ...a!.lastRemote, access_token: 'opaque-token-value', note: `Bearer ${jwt}` } },
      { ...b!, createResponse: { withdrawalId: 'w', debug: { headers: { Authorization: 'Basic abc' } } } },
      { ...c!, request: { ...c!.request, memo: `secret is ${clientSecret}` } },
    ]
    const { ledger } = seededLedger(recs)
    track(ledger)
    const res = await exportTo(ledger, { secrets: [clientSecret, 'short'] })
    expect(res.redacted).toBe(4)
    const privateBody = SIGNER.privateKeyPem.split('\n').filter((l) => l && !l.startsWith('-----'))
    for (const name of fs.readdirSync(res.folder)) {
      const text = fs.readFileSync(path.join(res.folder, name), 'utf8')
      for (const line of privateBody) expect(text).not.toContain(line)
      expect(text).not.toContain('PRIVATE KEY')
      for (const s of [jwt, clientSecret, 'opaque-token-value', 'Basic abc']) expect(text).not.toContain(s)
    }
    const json = JSON.parse(fs.readFileSync(fileIn(res, 'records.json'), 'utf8')) as {
      records: WithdrawalRecord[]
    }
    const byId = new Map(json.records.map((r) => [r.localId, r]))
    expect(byId.get(a!.localId)?.lastRemote?.access_token).toBe('[redacted]')
    expect(byId.get(a!.localId)?.lastRemote?.receiverName).toBe(a!.lastRemote!.receiverName)
    expect(byId.get(b!.localId)?.createResponse?.debug).toEqual({ headers: { Authorization: '[redacted]' } })
    expect((await verifyExport(res.manifestPath)).ok).toBe(true)
  })

  it('audits the export in the ledger, with the manifest hash', async () => {
    const { ledger } = seededLedger(makeRecords(4))
    track(ledger)
    const res = await exportTo(ledger, { operator: 'ana' })
    const entry = ledger.audit({ limit: 1 }).rows[0]!
    expect(entry).toMatchObject({ operator: 'ana', action: 'records.exported' })
    expect(entry.details.manifestSha256).toBe(
      createHash('sha256').update(fs.readFileSync(res.manifestPath)).digest('hex'),
    )
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })

  it('one format only; an empty result still makes a valid export', async () => {
    const { ledger } = seededLedger(makeRecords(4))
    track(ledger)
    const res = await exportTo(ledger, { formats: ['json'], filter: { statuses: ['nothing-like-this'] } })
    expect(res.rowCount).toBe(0)
    expect(fs.readdirSync(res.folder).sort()).toEqual([
      'anchors.jsonl',
      'audit.jsonl',
      'manifest.json',
      'records.json',
    ])
    expect(await verifyExport(res.manifestPath)).toMatchObject({ ok: true })
    const all = await exportTo(ledger, { formats: ['csv', 'html'], filter: { statuses: ['none'] } })
    expect(await verifyExport(all.manifestPath)).toMatchObject({ ok: true })
  })

  it('a bidi mark in the profile name is written escaped, so the export still verifies', async () => {
    const { ledger } = seededLedger(makeRecords(2))
    track(ledger)
    const res = await exportTo(ledger, {
      formats: ['json'],
      profile: { name: 'Caixa\u202e1', network: 'liquid' },
    })
    expect(readManifest(res).profile).toEqual({ name: 'Caixa\\u202e1', network: 'liquid' })
    expect(await verifyExport(res.manifestPath)).toMatchObject({ ok: true })
    const dir = tempDir()
    await expect(exportTo(ledger, { dir, filter: { text: 'a\u001bb' } })).rejects.toThrow(
      /filter: .*control character U\+001B/s,
    )
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('refuses a key pair that does not match before writing anything', async () => {
    const { ledger } = seededLedger(makeRecords(2))
    track(ledger)
    const dir = tempDir()
    const other = generateSigningKeyPair()
    await expect(
      exportTo(ledger, {
        dir,
        signer: { privateKeyPem: SIGNER.privateKeyPem, publicKeyPem: other.publicKeyPem },
      }),
    ).rejects.toThrow(SigningKeyError)
    await expect(exportTo(ledger, { dir, signer: { ...SIGNER, privateKeyPem: 'nope' } })).rejects.toThrow(
      /private key is not a PEM key$/,
    )
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('removes its folder when it fails midway', async () => {
    const { ledger, file } = seededLedger(makeRecords(3000))
    track(ledger)
    const dir = tempDir()
    let calls = 0
    await expect(
      exportTo(ledger, {
        dir,
        onProgress: () => {
          if (++calls === 2) throw new Error('disk full')
        },
      }),
    ).rejects.toThrow('disk full')
    expect(fs.readdirSync(dir)).toEqual([])
    // The ledger file still opens (one owner at a time: the first ledger closes first).
    ledger.close()
    track(openLedger(file))
  })

  it('issue #30: a file past what a verifier reads is refused while it is written, and the folder removed', async () => {
    const { ledger } = seededLedger(makeRecords(3_000))
    track(ledger)
    const dir = tempDir('records-too-large-')
    // 3,000 records make about 5 MB of records.json; the cap is lowered to 1 MB to see the refusal.
    await expect(exportTo(ledger, { dir, maxFileBytes: 1 << 20 })).rejects.toMatchObject({
      code: 'export_too_large',
      userMessage: {
        'pt-BR': expect.stringContaining('Exporte em partes'),
        en: expect.stringContaining('in parts'),
      },
    })
    expect(fs.readdirSync(dir)).toEqual([])
  })
})
