/**
 * The verifier proves a records.json line by its bytes (issue #30): a line whose state bytes hash to the state
 * its record's latest audit entry recorded is accepted without being written again (record-line.ts
 * stateHashInBytes). That holds only when the line's first member is exactly what recordLine writes for the
 * value parsed: these lines keep their state bytes (so the hash still matches the entry) and change only the
 * first member, re-hashed and re-signed as someone holding the key would. Each must still be refused.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyExport, type ExportResult } from '../../../src/main/records/index'
import { JSON_HEAD, JSON_TAIL } from '../../../src/main/records/json'
import { stateHashInBytes } from '../../../src/main/records/record-line'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, fileIn, fixHash, readManifest, resign, SIGNER, writeManifest } from './helpers'

let pristine: ExportResult
let dir: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-bytes-'))
  const { ledger } = seededLedger(makeRecords(30, { seed: 21 }), dir)
  pristine = await exportTo(ledger, { dir })
  ledger.close()
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function linesOf(ex: ExportResult): string[] {
  const text = fs.readFileSync(fileIn(ex, 'records.json'), 'utf8')
  return text.slice(JSON_HEAD.length, -JSON_TAIL.length).split(',\n')
}

/** A copy of the export with one line's first member replaced, records.json re-hashed and re-signed. */
function withFirstMember(at: number, member: (value: string) => string): ExportResult {
  const folder = path.join(tempDir('records-bytes-'), path.basename(pristine.folder))
  fs.cpSync(pristine.folder, folder, { recursive: true })
  const ex = { ...pristine, folder, manifestPath: path.join(folder, 'manifest.json') }
  const lines = linesOf(ex)
  const line = lines[at]!
  const value = JSON.stringify((JSON.parse(line) as { remoteCheckedAt: string | null }).remoteCheckedAt)
  const first = `{"remoteCheckedAt":${value}`
  expect(line.startsWith(first)).toBe(true)
  lines[at] = `{${member(value)}${line.slice(first.length)}`
  fs.writeFileSync(fileIn(ex, 'records.json'), JSON_HEAD + lines.join(',\n') + JSON_TAIL)
  const m = readManifest(ex)
  fixHash(ex, m, 'records.json')
  resign(m, SIGNER)
  writeManifest(ex, m)
  return ex
}

const schemaProblems = async (ex: ExportResult): Promise<string[]> =>
  (await verifyExport(ex.manifestPath)).problems
    .filter((p) => p.check !== 'signature')
    .map((p) => `${p.file}:${p.check}: ${p.detail}`)

describe('records.json proven by its bytes', () => {
  it('an intact line: its bytes hash to its entry’s state, and the export verifies', async () => {
    const buf = fs.readFileSync(fileIn(pristine, 'records.json'))
    const v = await verifyExport(pristine.manifestPath)
    expect(v.problems).toEqual([])
    const line = linesOf(pristine)[0]!
    const start = buf.indexOf(line)
    const got = stateHashInBytes(buf, start, start + Buffer.byteLength(line), JSON.parse(line))
    const id = (JSON.parse(line) as { localId: string }).localId
    expect(got).toBe(v.audit?.summary?.latest.get(id)?.stateHash)
    // The buffer is hashed in place and left as it was.
    expect(buf.equals(fs.readFileSync(fileIn(pristine, 'records.json')))).toBe(true)
  })

  const hostile: Array<[string, (value: string) => string]> = [
    ['white space before its value', (v) => `"remoteCheckedAt": ${v}`],
    ['its name escaped', (v) => `"remoteChecked\\u0041t":${v}`],
    [
      'itself twice, another value first',
      (v) => `"remoteCheckedAt":"2020-01-01T00:00:00.000Z","remoteCheckedAt":${v}`,
    ],
  ]
  for (const [what, member] of hostile) {
    it(`a first member with ${what}, the state bytes untouched: refused (schema)`, async () => {
      const ex = withFirstMember(4, member)
      const id = (JSON.parse(linesOf(ex)[4]!) as { localId: string }).localId
      const got = await schemaProblems(ex)
      expect(got).toContainEqual(
        expect.stringMatching(
          new RegExp(`^records\\.json:schema: 1 records are not written as export format 2 requires .*${id}`),
        ),
      )
    })
  }

  it('another remoteCheckedAt in the layout, the state bytes untouched: verifies (it is not audited state)', async () => {
    const ex = withFirstMember(6, () => '"remoteCheckedAt":"2031-01-01T00:00:00.000Z"')
    expect(await schemaProblems(ex)).toEqual([])
  })
})
