/**
 * Manifest version 2: records.json in the state layout (record-line.ts), each record's state bytes hashed by the
 * verifier. Hostile lines are refused at the verifier (re-hashed and re-signed, as someone holding the key would);
 * exports of version 1 (JSON.stringify of each record) stay verifiable, with the checks they always had.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { verifyExport, type ExportResult, type ExportVerification } from '../../../src/main/records/index'
import { recordLine } from '../../../src/main/records/record-line'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, fileIn, fixHash, readManifest, resign, SIGNER, writeManifest } from './helpers'

let pristine: ExportResult
/** The ledger's records as it iterates them (the order and members the version 1 exporter wrote). */
let records: WithdrawalRecord[]

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-layout-'))
  const { ledger } = seededLedger(makeRecords(60, { seed: 12 }), dir)
  try {
    pristine = await exportTo(ledger, { dir })
    records = [...ledger.iterate()]
  } finally {
    ledger.close()
  }
  return () => fs.rmSync(dir, { recursive: true, force: true })
})

function copy(): ExportResult {
  const folder = path.join(tempDir('records-layout-'), path.basename(pristine.folder))
  fs.cpSync(pristine.folder, folder, { recursive: true })
  return { ...pristine, folder, manifestPath: path.join(folder, 'manifest.json') }
}

const JSON_HEAD = '{"schema":"tesouraria-depix/records","version":1,"records":[\n'

/** records.json rewritten line by line (head and tail kept), the manifest re-hashed and re-signed. */
function rewrite(ex: ExportResult, edit: (lines: string[]) => string[], version?: number): void {
  const file = fileIn(ex, 'records.json')
  const text = fs.readFileSync(file, 'utf8')
  expect(text.startsWith(JSON_HEAD)).toBe(true)
  const body = text.slice(JSON_HEAD.length, -'\n]}\n'.length).split(',\n')
  fs.writeFileSync(file, `${JSON_HEAD}${edit(body).join(',\n')}\n]}\n`)
  const m = readManifest(ex)
  if (version !== undefined) m.version = version
  fixHash(ex, m, 'records.json')
  resign(m, SIGNER)
  writeManifest(ex, m)
}

const problems = (v: ExportVerification): string[] =>
  v.problems.map((p) => `${p.file}:${p.check}: ${p.detail}`)

describe('verifyExport, manifest version 2 (state layout)', () => {
  it('an export is version 2, every line is its record in the state layout, and it verifies', async () => {
    expect(readManifest(pristine).version).toBe(2)
    const text = fs.readFileSync(fileIn(pristine, 'records.json'), 'utf8')
    const lines = text.slice(JSON_HEAD.length, -'\n]}\n'.length).split(',\n')
    expect(lines).toEqual(records.map(recordLine))
    const v = await verifyExport(pristine.manifestPath)
    expect(problems(v)).toEqual([])
  })

  it('the review reads the same records from it', async () => {
    const v = await verifyExport(pristine.manifestPath, { keepRecords: true })
    expect(v.ok).toBe(true)
    expect(v.records).toEqual(records)
  })

  it('records written as version 1 wrote them, under a version 2 manifest: refused (schema), naming them', async () => {
    const ex = copy()
    rewrite(ex, () => records.map((r) => JSON.stringify(r)))
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(false)
    expect(problems(v)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^records\\.json:schema: 60 records are not written as export format 2 requires .*${records[0]!.localId}`,
        ),
      ),
    )
  })

  const hostile: Array<[string, (l: string) => string, string]> = [
    [
      'a duplicated member',
      (l) => l.replace(/"amountCents":(\d+)/, '"amountCents":1,"amountCents":$1'),
      'not written as export format 2',
    ],
    ['whitespace', (l) => l.replace(/,"localId"/, ', "localId"'), 'not written as export format 2'],
    [
      'an escaped character',
      (l) => l.replace('"localId":"rec', '"localId":"\\u0072ec'),
      'not written as export format 2',
    ],
    [
      'members out of order',
      (l) => l.replace(/"amountCents":(\d+),"amountKind":"(\w+)"/, '"amountKind":"$2","amountCents":$1'),
      'not written as export format 2',
    ],
    [
      'a "__proto__" member',
      (l) => l.replace('"amountCents"', '"__proto__":{"amountCents":1},"amountCents"'),
      'invalid',
    ],
    ['an unknown member in order', (l) => `${l.slice(0, -1)},"zz":1}`, 'invalid'],
  ]
  for (const [what, edit, says] of hostile) {
    it(`a line with ${what}, re-hashed and re-signed: refused`, async () => {
      const ex = copy()
      rewrite(ex, (lines) => lines.map((l, i) => (i === 3 ? edit(l) : l)))
      const v = await verifyExport(ex.manifestPath)
      expect(v.ok).toBe(false)
      expect(
        problems(v)
          .filter((p) => p.startsWith('records.json:schema:'))
          .join('\n'),
      ).toContain(says)
    })
  }

  it('an edited value, still in the layout: the record differs from its audit entry (audit)', async () => {
    const ex = copy()
    rewrite(ex, (lines) =>
      lines.map((l, i) => (i === 5 ? l.replace(/"receiverName":"[^"]*"/, '"receiverName":"Outro Nome"') : l)),
    )
    const v = await verifyExport(ex.manifestPath)
    expect(problems(v)).toContainEqual(
      expect.stringMatching(/^records\.json:audit: record .* differs from the state its last audit entry/),
    )
  })
})

describe('verifyExport, manifest version 1 (exports made before the state layout)', () => {
  it('an export as version 1 wrote it (JSON.stringify of each record) still verifies', async () => {
    const ex = copy()
    rewrite(ex, () => records.map((r) => JSON.stringify(r)), 1)
    const v = await verifyExport(ex.manifestPath)
    expect(problems(v)).toEqual([])
    expect(v.manifest?.version).toBe(1)
  })

  it('and an edited record in it is still found (audit), by the state hash of the parsed record', async () => {
    const ex = copy()
    rewrite(
      ex,
      () => records.map((r, i) => JSON.stringify(i === 7 ? { ...r, receiverName: 'Outro Nome' } : r)),
      1,
    )
    const v = await verifyExport(ex.manifestPath)
    expect(problems(v)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^records\\.json:audit: record ${records[7]!.localId}: differs from the state its last audit entry`,
        ),
      ),
    )
  })

  it('a manifest version neither 1 nor 2 is refused (schema)', async () => {
    const ex = copy()
    const m = readManifest(ex)
    m.version = 3
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(problems(v)).toContainEqual(expect.stringMatching(/^manifest\.json:schema: version/))
  })
})
