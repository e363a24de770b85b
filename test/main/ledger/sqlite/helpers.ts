import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach } from 'vitest'
import { openLedger, type Ledger, type NewWithdrawal } from '../../../../src/main/ledger/sqlite/index'

const dirs: string[] = []
const open: Ledger[] = []
const fileDirs: string[] = []
const fileOpen: Ledger[] = []

function cleanup(ledgers: Ledger[], ds: string[]): void {
  for (const l of ledgers.splice(0)) {
    try {
      l.close()
    } catch {
      // already closed by the test
    }
  }
  for (const d of ds.splice(0)) fs.rmSync(d, { recursive: true, force: true })
}

afterEach(() => cleanup(open, dirs))
afterAll(() => cleanup(fileOpen, fileDirs))

/** `scope: 'file'` keeps it until the whole test file ends (for a dataset built in beforeAll). */
export function tempDir(scope: 'test' | 'file' = 'test'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-test-'))
  ;(scope === 'file' ? fileDirs : dirs).push(d)
  return d
}

export const T0 = Date.parse('2025-03-01T12:00:00.000Z')

/** A clock that advances one second per reading, so every write has a distinct, ordered timestamp. */
export function steppingClock(start = T0, stepMs = 1000): { now: () => number; set: (t: number) => void } {
  let t = start - stepMs
  return {
    now: () => (t += stepMs),
    set: (v: number) => {
      t = v - stepMs
    },
  }
}

export function tempLedger(o: { now?: () => number; file?: string; scope?: 'test' | 'file' } = {}): {
  ledger: Ledger
  file: string
} {
  const scope = o.scope ?? 'test'
  const file = o.file ?? path.join(tempDir(scope), 'ledger.sqlite')
  const ledger = openLedger(file, { now: o.now ?? steppingClock().now })
  ;(scope === 'file' ? fileOpen : open).push(ledger)
  return { ledger, file }
}

export function track(l: Ledger): Ledger {
  open.push(l)
  return l
}

export function newWithdrawal(over: Partial<NewWithdrawal> = {}): NewWithdrawal {
  const pixKey = over.pixKey ?? 'maria.silva@example.com'
  const amountKind = over.amountKind ?? 'payout'
  const amountCents = over.amountCents ?? 12_345
  return {
    profile: 'sandbox',
    pixKey,
    amountKind,
    amountCents,
    request: {
      pixKey,
      taxNumber: '52998224725',
      [amountKind === 'deposit' ? 'depositAmountInCents' : 'payoutAmountInCents']: amountCents,
      refundAddress: 'lq1qqexample',
    },
    ...over,
  }
}

export const businessError = {
  kind: 'business',
  status: 520,
  messageCode: 'INVALID_PARAMETER',
  denialCode: null,
  requestId: 'req-520',
  message: 'payoutAmountInCents must be between 200 and 600000',
}
