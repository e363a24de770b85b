/** One process owns a ledger file: a second open of the same file is refused with a clear message. */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LedgerError, openLedger, type Ledger } from '../../../../src/main/ledger/sqlite'
import { acquireLedgerLock } from '../../../../src/main/ledger/sqlite/lock'

const REPO = path.resolve(__dirname, '../../../..')
const CHILD = path.join(__dirname, 'fixtures', 'lock-child.ts')

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

  it('a lock whose owner was killed is free at once; a note naming a live process is not a lock', async () => {
    const f = file()
    // A child takes the lock and is killed without releasing it.
    const child = spawn(
      process.execPath,
      [
        '--no-warnings',
        '--import',
        'tsx',
        CHILD,
        path.dirname(f),
        '1',
        String(Date.now() + 200),
        '100',
        '60000',
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const won = await new Promise<string>((resolve) =>
      child.stdout.once('data', (b: Buffer) => resolve(String(b))),
    )
    expect(won.trim()).toBe('0 won')
    const lockOf0 = path.join(path.dirname(f), 'ledger-0.sqlite')
    expect(() => acquireLedgerLock(lockOf0)).toThrow(`pid ${child.pid}`)
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    const mine = acquireLedgerLock(lockOf0)
    expect(mine).not.toBeNull()
    expect(JSON.parse(fs.readFileSync(`${lockOf0}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    mine?.release()
    expect(fs.existsSync(`${lockOf0}.lock`)).toBe(false)
    // The owner note decides nothing: one naming this live process (or torn) does not stop an open.
    fs.writeFileSync(`${f}.lock`, JSON.stringify({ pid: process.pid, host: os.hostname(), since: 'x' }))
    const l = openLedger(f)
    open.push(l)
    l.close()
    open.splice(0)
    fs.writeFileSync(`${f}.lock`, '{"pid":')
    open.push(openLedger(f))
  }, 30_000)

  it('two processes starting at the same instant: exactly one takes the lock, in each of 30 rounds', async () => {
    const dir = path.dirname(file())
    // The 30 rounds. Two starters meeting in SQLite's lock can each keep a shared lock and refuse each other
    // (lock.ts tryLock): exactly one must still win every round.
    const rounds = 30
    // Longer than a refused attempt takes (lock.ts: about 1 s), so both contenders meet every round at one instant.
    const period = 1_500
    const start = Date.now() + 3_000
    const contenders = [0, 1].map(() =>
      spawn(
        process.execPath,
        [
          '--no-warnings',
          '--import',
          'tsx',
          CHILD,
          dir,
          String(rounds),
          String(start),
          String(period),
          // Won locks are held until the test has read both contenders' rounds (then they are killed).
          '120000',
        ],
        { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    )
    const outputs = await Promise.all(
      contenders.map(
        (c) =>
          new Promise<string>((resolve, reject) => {
            let out = ''
            c.stdout.on('data', (b: Buffer) => {
              out += String(b)
              if (out.trim().split('\n').length === rounds) resolve(out)
            })
            c.once('exit', () => reject(new Error(`contender exited early: ${out}`)))
          }),
      ),
    ).finally(() => {
      for (const c of contenders) c.kill('SIGKILL')
    })
    const results = outputs.map(
      (o) =>
        new Map(
          o
            .trim()
            .split('\n')
            .map((l) => l.split(' ') as [string, string]),
        ),
    )
    for (let r = 0; r < rounds; r++) {
      const round = results.map((m) => m.get(String(r)))
      expect(round.sort(), `round ${r}`).toEqual(['locked', 'won'])
    }
  }, 90_000)
})
