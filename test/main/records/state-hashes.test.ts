/**
 * records.json's state hashes (verify.ts): each exported line's state bytes are hashed as read, which is the
 * state hash of the record it parses to (stateHashOfLine, recordStateHash), and an edited record is still found.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyExport, type ExportResult } from '../../../src/main/records/index'
import { JSON_HEAD, JSON_TAIL } from '../../../src/main/records/json'
import { recordStateHash } from '../../../src/main/ledger/model/state-hash'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { makeRecords, nastyRecords, seededLedger, tempDir } from './fixtures'
import {
  exportTo,
  fileIn,
  fixHash,
  readManifest,
  resign,
  SIGNER,
  stateHashOfLine,
  writeManifest,
} from './helpers'

let exported: ExportResult
// Its own folder: the helpers' afterEach removes every tempDir after each test.
let dir: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-states-'))
  const { ledger } = seededLedger([...makeRecords(40, { seed: 7 }), ...nastyRecords()], dir)
  exported = await exportTo(ledger, { dir })
  ledger.close()
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('state hashes of records.json', { timeout: 60_000 }, () => {
  it('each line’s bytes hash to the state hash of the record it holds', async () => {
    const v = await verifyExport(exported.manifestPath, { keepRecords: true })
    expect(v.problems).toEqual([])
    const text = fs.readFileSync(fileIn(exported, 'records.json'), 'utf8')
    const lines = text.slice(JSON_HEAD.length, -JSON_TAIL.length).split(',\n')
    const hashes = v.audit?.stateHashes
    expect(hashes?.size).toBe(lines.length)
    for (const [i, r] of (v.records ?? []).entries()) {
      const want = recordStateHash(r as WithdrawalRecord)
      expect(stateHashOfLine(lines[i]!, JSON.parse(lines[i]!))).toBe(want)
      expect(hashes?.get(r.localId)).toBe(want)
    }
  })

  it('verifyExport: intact verifies; an edited record in the layout is still found against its entry', async () => {
    expect((await verifyExport(exported.manifestPath)).problems).toEqual([])
    const folder = tempDir('records-states-edit-')
    fs.cpSync(exported.folder, folder, { recursive: true })
    const ex = { ...exported, folder, manifestPath: `${folder}/manifest.json` }
    const file = fileIn(ex, 'records.json')
    const text = fs.readFileSync(file, 'utf8')
    const lines = text.slice(JSON_HEAD.length, -JSON_TAIL.length).split(',\n')
    // The last line (no separating comma after it), edited in place and kept in the state layout.
    const last = JSON.parse(lines.at(-1)!) as { localId: string; receiverName: string | null }
    const edited = lines.at(-1)!.replace(/"receiverName":("[^"]*"|null)/, '"receiverName":"Mallory"')
    expect(edited).not.toBe(lines.at(-1))
    lines[lines.length - 1] = edited
    fs.writeFileSync(file, JSON_HEAD + lines.join(',\n') + JSON_TAIL)
    const m = readManifest(ex)
    fixHash(ex, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(ex, m)
    const v = await verifyExport(ex.manifestPath)
    expect(v.ok).toBe(false)
    expect(v.problems.map((p) => `${p.file}:${p.check}`)).toEqual(['records.json:audit'])
    expect(v.problems[0]!.detail).toContain(last.localId)
  })
})
