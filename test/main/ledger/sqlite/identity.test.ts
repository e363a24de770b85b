import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LedgerError, openLedger } from '../../../../src/main/ledger/sqlite/index'
import { identityPath, readIdentity } from '../../../../src/main/ledger/sqlite/identity'
import { importRecords } from '../../../../src/main/ledger/sqlite/import'
import { makeRecords } from '../../records/fixtures'
import { newWithdrawal, tempDir, tempLedger, track } from './helpers'

function refusal(fn: () => unknown): LedgerError {
  try {
    fn()
  } catch (e) {
    if (e instanceof LedgerError) return e
    throw e
  }
  throw new Error('expected a LedgerError, the ledger opened')
}

/** A ledger with `n` records, closed: the file and its identity beside it. */
function closedLedger(n = 3): string {
  const file = path.join(tempDir(), 'ledger.sqlite')
  importRecords(file, makeRecords(n))
  openLedger(file).close() // writes the identity, as the app's first open does
  return file
}

describe('ledger identity', () => {
  it('is written beside the ledger and follows the audit head on every write', () => {
    const { ledger, file } = tempLedger()
    const first = readIdentity(file)
    expect(first).toMatchObject({ ledgerId: ledger.ledgerId, head: { seq: 0 }, records: 0 })
    expect(ledger.ledgerId).toMatch(/^[0-9a-f]{32}$/)
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    expect(readIdentity(file)).toMatchObject({ head: ledger.auditHead(), records: 1 })
  })

  it('a 0-byte ledger is refused when the identity says there was one, with a message for the operator', () => {
    const file = closedLedger()
    fs.writeFileSync(file, '')
    for (const f of [`${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true })
    const e = refusal(() => openLedger(file))
    expect(e.code).toBe('ledger_empty')
    expect(e.userMessage?.['pt-BR']).toMatch(/está vazio.*backup/s)
    expect(e.userMessage?.en).toMatch(/is empty.*backup/s)
    expect(fs.statSync(file).size).toBe(0) // not recreated
  })

  it('a missing ledger is refused too', () => {
    const file = closedLedger()
    fs.rmSync(file)
    expect(refusal(() => openLedger(file)).code).toBe('ledger_missing')
    expect(fs.existsSync(file)).toBe(false)
  })

  it('another ledger put in its place is refused (different ledger id)', () => {
    const file = closedLedger()
    const other = closedLedger(5)
    fs.copyFileSync(other, file)
    const e = refusal(() => openLedger(file))
    expect(e.code).toBe('ledger_replaced')
    expect(e.userMessage?.en).toMatch(/not the one this computer recorded/)
  })

  it('an older copy of the same ledger (behind its recorded head) is refused', () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    const old = path.join(tempDir(), 'old.sqlite')
    ledger.backup('manual')
    fs.copyFileSync(path.join(path.dirname(file), 'backups', ledger.backups()[0]!.name), old)
    ledger.insertSubmitting(newWithdrawal({ localId: 'b' }), 'ana')
    ledger.close()
    fs.copyFileSync(old, file)
    expect(refusal(() => openLedger(file)).code).toBe('ledger_behind')
  })

  it('a zeroed page is refused by quick_check, never repaired', () => {
    const file = closedLedger(300)
    const size = fs.statSync(file).size
    const page = 4096
    expect(size).toBeGreaterThan(10 * page)
    const fd = fs.openSync(file, 'r+')
    fs.writeSync(fd, Buffer.alloc(page), 0, page, 3 * page) // page 4
    fs.closeSync(fd)
    const before = fs.readFileSync(file)
    const e = refusal(() => openLedger(file))
    expect(e.code).toBe('ledger_corrupt')
    expect(e.userMessage?.['pt-BR']).toMatch(/corrompido/)
    expect(fs.readFileSync(file).equals(before)).toBe(true)
  })

  it('a zeroed first page (not a database any more) is refused the same way', () => {
    const file = closedLedger(300)
    const fd = fs.openSync(file, 'r+')
    fs.writeSync(fd, Buffer.alloc(4096), 0, 4096, 0)
    fs.closeSync(fd)
    expect(refusal(() => openLedger(file)).code).toBe('ledger_corrupt')
  })

  it('an existing ledger without an identity file (first run of this version) is accepted and gets one', () => {
    const file = closedLedger()
    fs.rmSync(identityPath(file))
    const l = track(openLedger(file))
    expect(readIdentity(file)).toMatchObject({ ledgerId: l.ledgerId, records: 3 })
  })

  it('a damaged identity file is refused with a message, not ignored', () => {
    const file = closedLedger()
    fs.writeFileSync(identityPath(file), '{"version":1')
    const e = refusal(() => openLedger(file))
    expect(e.code).toBe('identity_unreadable')
    expect(e.userMessage?.en).toMatch(/identity file/)
  })
})

describe('quick_check of a large ledger, deferred to a worker', () => {
  it('opens, then checkFile finds the zeroed page and every later write is refused', async () => {
    const file = closedLedger(300)
    const page = 4096
    const fd = fs.openSync(file, 'r+')
    fs.writeSync(fd, Buffer.alloc(page), 0, page, 3 * page)
    fs.closeSync(fd)
    let ledger
    try {
      ledger = track(openLedger(file, { syncQuickCheckMaxBytes: 0 }))
    } catch (e) {
      // The damage may already show while opening (the schema or the head lives on that page): refused too.
      expect(e).toMatchObject({ code: 'ledger_corrupt' })
      return
    }
    const problems = await ledger.checkFile()
    expect(problems.length).toBeGreaterThan(0)
    expect(() => ledger.insertSubmitting(newWithdrawal({ localId: 'x' }), 'ana')).toThrow(
      expect.objectContaining({ code: 'ledger_corrupt' }),
    )
  })

  it('a sound large ledger passes the worker check', async () => {
    const file = closedLedger(50)
    const ledger = track(openLedger(file, { syncQuickCheckMaxBytes: 0 }))
    expect(await ledger.checkFile()).toEqual([])
    ledger.insertSubmitting(newWithdrawal({ localId: 'x' }), 'ana')
  })
})
