/**
 * review:checkLedger through the real router: the export open in the review against this computer's ledger (a
 * real SQLite file). An export of this ledger matches, also after the ledger grew; an export of another ledger,
 * of a copy that went on separately (a fork), of a copy that went further than this ledger (this ledger behind,
 * as after a restore), or one with an audit entry dropped and re-signed (a truncated export) does not; a ledger
 * edited with plain SQL checks nothing.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { importRecords } from '../../../src/main/ledger/sqlite/import'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite/types'
import { createJsonFileStore } from '../../../src/main/profiles'
import { exportRecords, generateSigningKeyPair } from '../../../src/main/records'
import { manifestFileText } from '../../../src/main/records/manifest'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult } from '../../../src/shared/contract'
import type { ReviewLedgerCheck } from '../../../src/shared/channels-review'
import { makeRecords } from '../records/fixtures'
import { fixHash, resign } from '../records/helpers'

let dataDir: string
let ctx: AppContext
const dialog: Array<string | null> = []
const stranger = generateSigningKeyPair()

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'review-ledger-check-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(dialog.shift() ?? null),
      openExternal: () => Promise.resolve(),
    },
  })
  for (let i = 0; i < 4; i++) ctx.ledger.insertSubmitting(withdrawal(i), 'tester')
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

function withdrawal(i: number): NewWithdrawal {
  const pixKey = `conferencia.${i}@example.com`
  const amountCents = 1_000 + i
  return {
    profile: ctx.runtime().profile.id,
    pixKey,
    amountKind: 'payout',
    amountCents,
    request: { pixKey, payoutAmountInCents: amountCents },
  }
}

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}

function folder(name: string): string {
  const dir = join(dataDir, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** Opens `dir` in the review through the dialog token, as the page does; returns whether it verified. */
async function openReview(dir: string): Promise<boolean> {
  dialog.push(dir)
  const chosen = await call<{ token: string } | null>('dialog:chooseFolder', { purpose: 'review' })
  if (!chosen.ok || chosen.data === null) throw new Error('no token')
  const r = await call<{ ok: boolean }>('review:open', { folder: chosen.data.token })
  if (!r.ok) throw new Error(r.error.code)
  return r.data.ok
}

async function checkLedger(): Promise<ReviewLedgerCheck> {
  const r = await call<ReviewLedgerCheck>('review:checkLedger')
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.data
}

/** An export of this app's ledger through records:export. */
async function exportHere(name: string): Promise<string> {
  dialog.push(folder(name))
  const chosen = await call<{ token: string } | null>('dialog:chooseFolder', { purpose: 'export' })
  if (!chosen.ok || chosen.data === null) throw new Error('no token')
  const r = await call<{ manifestPath: string }>('records:export', {
    folder: chosen.data.token,
    formats: ['json'],
  })
  if (!r.ok) throw new Error(r.error.code)
  return dirname(r.data.manifestPath)
}

/** An export of another ledger file, signed by a key of its own. */
async function exportOf(ledger: Ledger, name: string): Promise<string> {
  const made = await exportRecords(ledger, {
    dir: folder(name),
    formats: ['json'],
    signer: stranger,
    appVersion: '0.0.0-other',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  return made.folder
}

/** A copy of this app's ledger file (a backup, as Settings takes one), opened as a ledger of its own. */
function copyOfThisLedger(name: string): Ledger {
  const backup = ctx.ledger.backup('manual')
  const file = join(folder(name), 'ledger.sqlite')
  copyFileSync(join(dataDir, 'backups', backup.name), file)
  return openLedger(file)
}

describe('review:checkLedger', () => {
  it('is refused with no review open, and names no path in its input', async () => {
    const r = await call('review:checkLedger')
    expect(!r.ok && r.error.code).toBe('no_review')
    const withInput = await call('review:checkLedger', { folder: '/tmp' })
    expect(!withInput.ok && withInput.error.code).toBe('invalid_input')
  })

  it('an export of this ledger matches, and still does after the ledger grew', async () => {
    const headAtExport = ctx.ledger.auditHead()
    const dir = await exportHere('own')
    expect(await openReview(dir)).toBe(true)
    const first = await checkLedger()
    expect(first.verdict).toBe('match')
    expect(first.problems).toEqual([])
    expect(first.exportHead).toEqual(headAtExport)
    // The export itself is an entry after its head.
    expect(first.ledgerHead).toEqual(ctx.ledger.auditHead())
    expect(first.ledgerHead.seq).toBeGreaterThan(headAtExport.seq)
    // 4 records: each has its submitting entry in the export, all found here with the same hash.
    expect(first.entriesMatched).toBeGreaterThanOrEqual(4)

    ctx.ledger.insertSubmitting(withdrawal(10), 'tester')
    const later = await checkLedger()
    expect(later.verdict).toBe('match')
    expect(later.ledgerHead.seq).toBeGreaterThan(first.ledgerHead.seq)
    expect(later.exportHead).toEqual(headAtExport)
  })

  it('an export of another ledger does not match', async () => {
    const file = join(folder('other-ledger'), 'ledger.sqlite')
    importRecords(file, makeRecords(3, { profile: ctx.runtime().profile.id }))
    const other = openLedger(file)
    let dir: string
    try {
      dir = await exportOf(other, 'other-export')
    } finally {
      other.close()
    }
    expect(await openReview(dir)).toBe(true)
    const r = await checkLedger()
    expect(r.verdict).toBe('different_history')
    expect(r.problems[0]).toMatch(/is not this ledger's|has no entry/)
  })

  it('an export of a copy that went on separately (a fork) does not match', async () => {
    const copy = copyOfThisLedger('fork')
    let dir: string
    try {
      // The same history up to here, then one write on each side: the same seq, different entries.
      ctx.ledger.insertSubmitting(withdrawal(20), 'tester')
      copy.insertSubmitting(withdrawal(21), 'tester')
      expect(copy.auditHead().seq).toBe(ctx.ledger.auditHead().seq)
      dir = await exportOf(copy, 'fork-export')
    } finally {
      copy.close()
    }
    expect(await openReview(dir)).toBe(true)
    const r = await checkLedger()
    expect(r.verdict).toBe('different_history')
    expect(r.problems[0]).toContain("is not this ledger's")
  })

  it('an export that goes beyond this ledger (this ledger replaced by an older copy) does not match', async () => {
    const copy = copyOfThisLedger('ahead')
    let dir: string
    try {
      copy.insertSubmitting(withdrawal(30), 'tester')
      copy.insertSubmitting(withdrawal(31), 'tester')
      dir = await exportOf(copy, 'ahead-export')
    } finally {
      copy.close()
    }
    expect(await openReview(dir)).toBe(true)
    const r = await checkLedger()
    expect(r.verdict).toBe('not_in_ledger')
    expect(r.exportHead!.seq).toBeGreaterThan(r.ledgerHead.seq)
    expect(r.problems[0]).toContain(`this ledger ends at entry ${r.ledgerHead.seq}`)
  })

  it('an export with an audit entry dropped and re-signed (it verifies on its own) does not match', async () => {
    // A record with two entries; the older one is dropped: the latest still names the exported state, so the
    // export alone cannot tell.
    const flagged = ctx.ledger.query({ limit: 1 }).rows[0]!.localId
    ctx.ledger.setFlags(flagged, ['payee_mismatch'], 'tester')
    const dir = await exportHere('truncated')
    const audit = join(dir, 'audit.jsonl')
    const lines = readFileSync(audit, 'utf8').split('\n').filter(Boolean)
    const drop = lines.findIndex((l) => (JSON.parse(l) as { subject: string | null }).subject === flagged)
    expect(lines.filter((l) => l.includes(flagged)).length).toBeGreaterThanOrEqual(2)
    const dropped = JSON.parse(lines[drop]!) as { seq: number; subject: string }
    writeFileSync(
      audit,
      lines
        .filter((_, i) => i !== drop)
        .map((l) => `${l}\n`)
        .join(''),
    )
    const manifestPath = join(dir, 'manifest.json')
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown> & {
      files: Array<Record<string, unknown>>
    }
    fixHash({ folder: dir, manifestPath } as never, m, 'audit.jsonl')
    resign(m, stranger)
    writeFileSync(manifestPath, manifestFileText(m))

    expect(await openReview(dir)).toBe(true)
    const r = await checkLedger()
    expect(r.verdict).toBe('entries_differ')
    expect(r.problems).toContain(
      `entry ${dropped.seq} about ${dropped.subject} is in this ledger but not in the export`,
    )
  })

  it('a ledger changed with plain SQL checks nothing: ledger_broken', async () => {
    const dir = await exportHere('before-sql')
    expect(await openReview(dir)).toBe(true)
    expect((await checkLedger()).verdict).toBe('match')
    const raw = new DatabaseSync(join(dataDir, 'ledger.sqlite'))
    try {
      raw.exec('PRAGMA busy_timeout = 5000')
      raw.prepare('UPDATE withdrawals SET amount_cents = amount_cents + 100 WHERE id = 1').run()
    } finally {
      raw.close()
    }
    const r = await checkLedger()
    expect(r.verdict).toBe('ledger_broken')
    expect(r.problems[0]).toContain('audit chain is broken')
  })
})
