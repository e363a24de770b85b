/**
 * The app context and the export fixtures of review-older.test.ts: a real router over a real SQLite ledger and an
 * embedded sandbox, ledgers of their own to export from, the (fake) folder dialog's tokens, and what someone
 * holding the signing key does to an export. Importing it registers the context's set-up and tear-down.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { importRecords } from '../../../src/main/ledger/sqlite/import'
import { auditHash } from '../../../src/main/ledger/model/audit-hash'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { createJsonFileStore } from '../../../src/main/profiles'
import { exportRecords, generateSigningKeyPair, type SigningKeyPair } from '../../../src/main/records'
import { auditLine } from '../../../src/main/records/audit-member'
import { manifestFileText } from '../../../src/main/records/manifest'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult } from '../../../src/shared/contract'
import type { ReviewOlderCheck } from '../../../src/shared/channels-review'
import type { AuditEntry } from '../../../src/shared/withdrawal-record'
import { makeRecords } from '../records/fixtures'
import { fixHash, resign } from '../records/helpers'

let dataDir: string
let ctx: AppContext
const dialog: Array<string | null> = []
/** Ledgers opened by a test, closed with the context. */
export const ledgers: Ledger[] = []
/** The key both exports of a ledger are signed with (the exporting computer's), and a stranger's. */
export const KEY = generateSigningKeyPair()
export const STRANGER = generateSigningKeyPair()

/** The app context of the test file. */
export const app = (): AppContext => ctx
let made = 0

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'review-older-'))
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
})
afterAll(async () => {
  for (const l of ledgers) l.close()
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

export function folder(name: string): string {
  const dir = join(dataDir, `${name}-${++made}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * A ledger of its own with six records: their import entries, then `records.imported` (about no record, so no
 * export carries it).
 */
export function freshLedger(dir = folder('ledger')): Ledger {
  const file = join(dir, 'ledger.sqlite')
  importRecords(file, makeRecords(6, { profile: ctx.runtime().profile.id }))
  const l = openLedger(file)
  ledgers.push(l)
  return l
}

/** The ledger grows: a payment is asked for and another record flagged (entries about exported records). */
export function grow(l: Ledger, i: number): void {
  const pixKey = `anterior.${i}@example.com`
  l.insertSubmitting(
    {
      profile: ctx.runtime().profile.id,
      pixKey,
      amountKind: 'payout',
      amountCents: 2_000 + i,
      request: { pixKey, payoutAmountInCents: 2_000 + i },
    },
    'tester',
  )
  l.setFlags(l.query({ limit: 1 }).rows[0]!.localId, ['checked'], 'tester')
}

export async function exportOf(l: Ledger, signer: SigningKeyPair = KEY): Promise<string> {
  const r = await exportRecords(l, {
    dir: folder('export'),
    formats: ['json'],
    signer,
    appVersion: '0.0.0-test',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  return r.folder
}

export async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}

/** A one-use token for `dir`, as the page gets one: main's (fake) dialog answers it. */
export async function token(dir: string, purpose: 'review' | 'export' = 'review'): Promise<string> {
  dialog.push(dir)
  const chosen = await call<{ token: string } | null>('dialog:chooseFolder', { purpose })
  if (!chosen.ok || chosen.data === null) throw new Error('no token')
  return chosen.data.token
}

export async function openReview(dir: string): Promise<boolean> {
  const r = await call<{ ok: boolean }>('review:open', { folder: await token(dir) })
  if (!r.ok) throw new Error(r.error.code)
  return r.data.ok
}

export async function compare(dir: string): Promise<ReviewOlderCheck & { ms: number }> {
  const t0 = performance.now()
  const r = await call<ReviewOlderCheck>('review:compareOlder', { folder: await token(dir) })
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return { ...r.data, ms: performance.now() - t0 }
}

export function manifestOf(dir: string): Record<string, unknown> & { files: Array<Record<string, unknown>> } {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> & {
    files: Array<Record<string, unknown>>
  }
}

/** Re-signs `dir`'s manifest after `edit`, as whoever holds `signer` would. */
export function resignWith(
  dir: string,
  signer: SigningKeyPair,
  edit: (m: ReturnType<typeof manifestOf>) => void,
): void {
  const m = manifestOf(dir)
  edit(m)
  resign(m, signer)
  writeFileSync(join(dir, 'manifest.json'), manifestFileText(m))
}

/**
 * What someone holding the signing key does to an export's history: the first entry's details rewritten, its
 * hash and every later entry's link and hash recomputed, the manifest's head moved, the file hash fixed, and the
 * manifest re-signed with the same key. The export then verifies on its own.
 */
export function rewriteHistory(dir: string): void {
  const file = join(dir, 'audit.jsonl')
  const entries = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEntry)
  entries[0] = { ...entries[0]!, details: { ...entries[0]!.details, note: 'rewritten' } }
  let prev: AuditEntry | null = null
  for (const e of entries) {
    if (prev && e.seq === prev.seq + 1) e.prevHash = prev.hash
    const { hash: _old, ...rest } = e
    e.hash = auditHash(rest)
    prev = e
  }
  writeFileSync(file, entries.map(auditLine).join(''))
  // anchors.jsonl (issue #12) rewritten to match, as the forger would: every anchor audit.jsonl also carries.
  const anchorsFile = join(dir, 'anchors.jsonl')
  const anchors = existsSync(anchorsFile)
    ? readFileSync(anchorsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditEntry)
        .map((a) => entries.find((e) => e.seq === a.seq) ?? a)
    : null
  if (anchors) writeFileSync(anchorsFile, anchors.map(auditLine).join(''))
  resignWith(dir, KEY, (m) => {
    const head = m['auditHead'] as { seq: number; hash: string }
    const last = entries[entries.length - 1]!
    if (last.seq === head.seq) head.hash = last.hash
    fixHash({ folder: dir } as never, m, 'audit.jsonl')
    if (anchors) fixHash({ folder: dir } as never, m, 'anchors.jsonl')
  })
}

/** The export in `dir` as made before anchors (issue #12): no anchors.jsonl, not listed, re-signed. */
export function withoutAnchors(dir: string): void {
  rmSync(join(dir, 'anchors.jsonl'))
  resignWith(dir, KEY, (m) => {
    m.files = m.files.filter((f) => f['format'] !== 'anchors')
  })
}

/** A copy of the export in `dir`, in a new folder of its own. */
export function copyOf(dir: string, name: string): string {
  const to = folder(name)
  execFileSync('cp', ['-r', `${dir}/.`, to])
  return to
}
