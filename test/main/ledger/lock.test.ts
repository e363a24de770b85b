/** One process owns a ledger file: a second open of the same file is refused with a clear message. */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LedgerError, openLedger, type Ledger } from '../../../src/main/ledger'

const open: Ledger[] = []
const dirs: string[] = []
afterEach(() => {
  for (const l of open.splice(0)) l.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function file(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-lock-'))
  dirs.push(d)
  return path.join(d, 'ledger.sqlite')
}

describe('ledger lock', () => {
  it('a second ledger on the same file is refused, in pt-BR and English, until the first closes', () => {
    const f = file()
    const first = openLedger(f)
    open.push(first)
    first.insertSubmitting(
      {
        profile: 'sandbox',
        pixKey: 'fulano@example.com',
        amountKind: 'payout',
        amountCents: 1_000,
        request: { pixKey: 'fulano@example.com', payoutAmountInCents: 1_000 },
      },
      'ana',
    )
    const started = Date.now()
    const e = (() => {
      try {
        open.push(openLedger(f))
        return null
      } catch (x) {
        return x
      }
    })()
    expect(e).toBeInstanceOf(LedgerError)
    expect(e).toMatchObject({ code: 'locked' })
    expect((e as Error).message).toContain('another instance')
    expect((e as Error).message).toContain('outra instância')
    // Refused at once, not after the busy timeout.
    expect(Date.now() - started).toBeLessThan(4_000)
    // The owner is untouched and keeps writing.
    expect(first.query().rows.map((r) => r.localState)).toEqual(['submitting'])
    expect(first.verifyAuditChain()).toMatchObject({ ok: true })

    first.close()
    open.splice(0)
    const second = openLedger(f)
    open.push(second)
    expect(second.query().total).toBe(1)
  })

  it('a lock left by a dead process, or a torn one, is stale and taken over', () => {
    const f = file()
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    fs.writeFileSync(
      `${f}.lock`,
      JSON.stringify({ pid: dead, host: os.hostname(), since: 'x', procStart: null }),
    )
    const l = openLedger(f)
    open.push(l)
    expect(JSON.parse(fs.readFileSync(`${f}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    l.close()
    open.splice(0)
    expect(fs.existsSync(`${f}.lock`)).toBe(false)
    fs.writeFileSync(`${f}.lock`, '{"pid":')
    open.push(openLedger(f))
  })

  it('a lock of a live process is respected and named; on Linux a reused pid (other start time) is stale', async () => {
    const f = file()
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      await new Promise((r) => child.once('spawn', r))
      const pid = child.pid as number
      const holder = { pid, host: os.hostname(), since: '2025-03-01T12:00:00.000Z', procStart: null }
      fs.writeFileSync(`${f}.lock`, JSON.stringify(holder))
      expect(() => openLedger(f)).toThrow(`pid ${pid}`)
      expect(fs.existsSync(`${f}.lock`)).toBe(true)
      if (process.platform !== 'linux') {
        console.warn('reused-pid check skipped: /proc start times exist only on Linux')
        return
      }
      fs.writeFileSync(`${f}.lock`, JSON.stringify({ ...holder, procStart: '1' }))
      open.push(openLedger(f))
    } finally {
      child.kill('SIGKILL')
    }
  })
})
