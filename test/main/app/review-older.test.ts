/**
 * review:compareOlder through the real router: the export open in the review against an older export the auditor
 * kept, whose folder comes only from the (fake) folder dialog as a one-use token. Real SQLite ledgers, real
 * exports, real links and a real FIFO. Growth between the two is proven; the wrong order, another signer, a head
 * the open export does not carry, a hostile or tampered older folder, and a history rewritten with every hash
 * recomputed and re-signed with the same key are each told apart, never green.
 */
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { importRecords } from '../../../src/main/ledger/import'
import { auditHash } from '../../../src/main/ledger/audit-hash'
import { openLedger, type Ledger } from '../../../src/main/ledger'
import { createJsonFileStore } from '../../../src/main/profiles'
import { exportRecords, generateSigningKeyPair, type SigningKeyPair } from '../../../src/main/records'
import { auditLine } from '../../../src/main/records/audit-member'
import { manifestFileText } from '../../../src/main/records/manifest'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult } from '../../../src/shared/contract'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { ReviewOlderCheck } from '../../../src/shared/channels-review'
import type { AuditEntry } from '../../../src/shared/withdrawal-record'
import { makeRecords } from '../records/fixtures'
import { fixHash, flipByte, resign } from '../records/helpers'

let dataDir: string
let ctx: AppContext
const dialog: Array<string | null> = []
const ledgers: Ledger[] = []
/** The key both exports of a ledger are signed with (the exporting computer's), and a stranger's. */
const KEY = generateSigningKeyPair()
const STRANGER = generateSigningKeyPair()
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

function folder(name: string): string {
  const dir = join(dataDir, `${name}-${++made}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * A ledger of its own with six records: their import entries, then `records.imported` (about no record, so no
 * export carries it).
 */
function freshLedger(dir = folder('ledger')): Ledger {
  const file = join(dir, 'ledger.sqlite')
  importRecords(file, makeRecords(6, { profile: ctx.runtime().profile.id }))
  const l = openLedger(file)
  ledgers.push(l)
  return l
}

/** The ledger grows: a payment is asked for and another record flagged (entries about exported records). */
function grow(l: Ledger, i: number): void {
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

async function exportOf(l: Ledger, signer: SigningKeyPair = KEY): Promise<string> {
  const r = await exportRecords(l, {
    dir: folder('export'),
    formats: ['json'],
    signer,
    appVersion: '0.0.0-test',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  return r.folder
}

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}

/** A one-use token for `dir`, as the page gets one: main's (fake) dialog answers it. */
async function token(dir: string, purpose: 'review' | 'export' = 'review'): Promise<string> {
  dialog.push(dir)
  const chosen = await call<{ token: string } | null>('dialog:chooseFolder', { purpose })
  if (!chosen.ok || chosen.data === null) throw new Error('no token')
  return chosen.data.token
}

async function openReview(dir: string): Promise<boolean> {
  const r = await call<{ ok: boolean }>('review:open', { folder: await token(dir) })
  if (!r.ok) throw new Error(r.error.code)
  return r.data.ok
}

async function compare(dir: string): Promise<ReviewOlderCheck & { ms: number }> {
  const t0 = performance.now()
  const r = await call<ReviewOlderCheck>('review:compareOlder', { folder: await token(dir) })
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return { ...r.data, ms: performance.now() - t0 }
}

function manifestOf(dir: string): Record<string, unknown> & { files: Array<Record<string, unknown>> } {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> & {
    files: Array<Record<string, unknown>>
  }
}

/** Re-signs `dir`'s manifest after `edit`, as whoever holds `signer` would. */
function resignWith(
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
function rewriteHistory(dir: string): void {
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
  resignWith(dir, KEY, (m) => {
    const head = m['auditHead'] as { seq: number; hash: string }
    const last = entries[entries.length - 1]!
    if (last.seq === head.seq) head.hash = last.hash
    fixHash({ folder: dir } as never, m, 'audit.jsonl')
  })
}

describe('review:compareOlder', () => {
  let older: string
  let newer: string
  let ledger: Ledger

  beforeAll(async () => {
    ledger = freshLedger()
    // The older export's head is then an entry about an exported record, which the newer export carries.
    grow(ledger, 0)
    older = await exportOf(ledger)
    grow(ledger, 1)
    grow(ledger, 2)
    newer = await exportOf(ledger)
  })

  it('with no review open is refused before the token is spent', async () => {
    await call('review:close')
    const t = await token(older)
    const none = await call('review:compareOlder', { folder: t })
    expect(!none.ok && none.error.code).toBe('no_review')
    expect(await openReview(newer)).toBe(true)
    const r = await call<ReviewOlderCheck>('review:compareOlder', { folder: t })
    expect(r.ok && r.data.verdict).toBe('extends')
  })

  it('names no path: a path, an unknown token, a used token and an export token are refused', async () => {
    expect(await openReview(newer)).toBe(true)
    for (const input of [
      { folder: older },
      { folder: join(older, 'manifest.json') },
      {},
      { folder: 'x'.repeat(43), dir: older },
    ]) {
      const r = await call('review:compareOlder', input)
      expect(!r.ok && r.error.code).toBe('invalid_input')
    }
    const unknown = await call('review:compareOlder', { folder: 'A'.repeat(43) })
    expect(!unknown.ok && unknown.error.code).toBe('folder_token_invalid')
    const t = await token(older)
    const first = await call<ReviewOlderCheck>('review:compareOlder', { folder: t })
    expect(first.ok).toBe(true)
    const again = await call('review:compareOlder', { folder: t })
    expect(!again.ok && again.error.code).toBe('folder_token_invalid')
    const forExport = await call('review:compareOlder', { folder: await token(older, 'export') })
    expect(!forExport.ok && forExport.error.code).toBe('folder_token_invalid')
  })

  it('an older export of the same ledger, with payments between: extends (proven)', async () => {
    expect(await openReview(newer)).toBe(true)
    const r = await compare(older)
    expect(r.verdict).toBe('extends')
    expect(r.problems).toEqual([])
    expect(r.olderHead).toEqual(manifestOf(older)['auditHead'])
    expect(r.openHead).toEqual(manifestOf(newer)['auditHead'])
    expect(r.openHead!.seq).toBeGreaterThan(r.olderHead!.seq)
    expect(r.commonRecords).toBe(7)
    expect(r.older).toMatchObject({ profile: 'Sandbox', rowCount: 7 })
    expect(r.olderSigner).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){7}$/)
    // The same export on both sides: the same head, nothing to add, still proven.
    expect((await compare(newer)).verdict).toBe('extends')
  })

  it('chosen the wrong way round (the "older" is the newer one): older_is_newer, not green', async () => {
    expect(await openReview(older)).toBe(true)
    const r = await compare(newer)
    expect(r.verdict).toBe('older_is_newer')
    expect(r.problems[0]).toContain(`entry ${r.olderHead!.seq}, after this export's (${r.openHead!.seq})`)
  })

  it('an older export whose head the open one does not carry: head_not_carried, not green', async () => {
    // Two exports in a row: the second one's head is the first one's `records.exported` entry, about no record,
    // so no later export carries it.
    const l = freshLedger()
    await exportOf(l)
    const old = await exportOf(l)
    grow(l, 3)
    const later = await exportOf(l)
    expect(await openReview(later)).toBe(true)
    const r = await compare(old)
    expect(r.verdict).toBe('head_not_carried')
    expect(r.commonRecords).toBe(6)
    expect(r.problems[0]).toContain(`does not carry entry ${r.olderHead!.seq}`)
  })

  it('hostile older folders are refused quickly with a precise problem: link, FIFO, device, tampered', async () => {
    expect(await openReview(newer)).toBe(true)
    const cases: Array<{ make: () => string; detail: RegExp }> = [
      {
        // The older folder itself a link to a genuine older export.
        make: () => {
          const link = join(folder('link'), 'older')
          symlinkSync(older, link)
          return link
        },
        detail: /manifest\.json \[missing\] .*is a symbolic link/,
      },
      {
        make: () => {
          const dir = folder('manifest-link')
          symlinkSync(join(older, 'manifest.json'), join(dir, 'manifest.json'))
          return dir
        },
        detail: /manifest\.json \[missing\] .*manifest\.json is a symbolic link \(links are not followed\)/,
      },
      {
        // A FIFO nobody writes to: an open that waited for a writer would hang here for ever.
        make: () => {
          const dir = folder('fifo')
          execFileSync('mkfifo', [join(dir, 'manifest.json')])
          return dir
        },
        detail: /manifest\.json is a named pipe \(FIFO\), not a regular file/,
      },
      {
        make: () => {
          const dir = folder('zero')
          symlinkSync('/dev/zero', join(dir, 'manifest.json'))
          return dir
        },
        detail: /manifest\.json is a symbolic link/,
      },
      {
        make: () => {
          const dir = folder('tampered')
          execFileSync('cp', ['-r', `${older}/.`, dir])
          flipByte(join(dir, 'records.json'), 40)
          return dir
        },
        detail: /records\.json \[hash\]/,
      },
    ]
    for (const c of cases) {
      const r = await compare(c.make())
      expect(r.verdict).toBe('older_not_intact')
      expect(r.older).toBeNull()
      expect(r.problems.join('\n')).toMatch(c.detail)
      expect(r.ms).toBeLessThan(3000)
    }
  })

  it('an older export re-signed by another key: other_signer', async () => {
    const dir = folder('stranger')
    execFileSync('cp', ['-r', `${older}/.`, dir])
    resignWith(dir, STRANGER, () => undefined)
    expect(await openReview(newer)).toBe(true)
    const r = await compare(dir)
    expect(r.verdict).toBe('other_signer')
    expect(r.problems[0]).toContain('signed by key')
  })

  it('a history rewritten with every hash recomputed and re-signed with the same key: diverged', async () => {
    // The older side rewritten (what the auditor was handed differs from what the ledger now shows)…
    const forgedOlder = folder('forged-older')
    execFileSync('cp', ['-r', `${older}/.`, forgedOlder])
    rewriteHistory(forgedOlder)
    expect(await openReview(newer)).toBe(true)
    let r = await compare(forgedOlder)
    expect(r.verdict).toBe('diverged')
    expect(r.problems.join('\n')).toMatch(/entry \d+ about .* was rewritten/)

    // …and the open side rewritten (the ledger's history changed after the auditor got the older export).
    const forgedNewer = folder('forged-newer')
    execFileSync('cp', ['-r', `${newer}/.`, forgedNewer])
    rewriteHistory(forgedNewer)
    expect(await openReview(forgedNewer)).toBe(true) // self-consistent on its own
    r = await compare(older)
    expect(r.verdict).toBe('diverged')
    expect(r.problems.join('\n')).toMatch(/was rewritten/)
  })

  it('a copy of the ledger that went on separately (a fork, the same head seq): diverged', async () => {
    const dir = folder('ledger')
    const l = freshLedger(dir)
    grow(l, 4)
    const backup = l.backup('manual')
    const copyFile = join(folder('fork'), 'ledger.sqlite')
    copyFileSync(join(dir, 'backups', backup.name), copyFile)
    const copy = openLedger(copyFile)
    ledgers.push(copy)
    // One write on each side: the same seq, different entries.
    grow(l, 5)
    grow(copy, 6)
    expect(copy.auditHead().seq).toBe(l.auditHead().seq)
    const fromCopy = await exportOf(copy)
    const fromOriginal = await exportOf(l)
    expect(await openReview(fromOriginal)).toBe(true)
    const r = await compare(fromCopy)
    expect(r.verdict).toBe('diverged')
    expect(r.problems).toContain(
      `same audit head seq ${r.openHead!.seq} with a different hash: history was rewritten`,
    )
  })

  it('an open export that does not verify: open_not_intact, whatever the older one', async () => {
    const dir = folder('open-tampered')
    execFileSync('cp', ['-r', `${newer}/.`, dir])
    flipByte(join(dir, 'records.json'), 40)
    expect(await openReview(dir)).toBe(false)
    expect((await compare(older)).verdict).toBe('open_not_intact')
  })

  it('an older export made before the audit trail: no_audit', async () => {
    const dir = folder('no-audit')
    execFileSync('cp', ['-r', `${older}/.`, dir])
    rmSync(join(dir, 'audit.jsonl'))
    resignWith(dir, KEY, (m) => {
      m['auditHead'] = null
      m.files = m.files.filter((f) => f['format'] !== 'audit')
    })
    expect(await openReview(newer)).toBe(true)
    const r = await compare(dir)
    expect(r.verdict).toBe('no_audit')
    expect(r.problems[0]).toContain('the older export has no audit head')
  })
  it('an older folder crowded with 12,000 other names is still compared, quickly (the scan stops at 10,000)', async () => {
    const dir = folder('crowded')
    execFileSync('cp', ['-r', `${older}/.`, dir])
    execFileSync('bash', ['-c', 'cd "$1" && seq -f "n%.0f" 1 12000 | xargs touch', '_', dir])
    expect(readdirSync(dir).length).toBeGreaterThan(12_000)
    expect(await openReview(newer)).toBe(true)
    const r = await compare(dir)
    // Names the manifest does not list are not covered by the signature, but they do not make it tampered.
    expect(r.verdict).toBe('extends')
    expect(r.ms).toBeLessThan(3000)
  })

  it('a folder chosen under another profile is refused by review:compareOlder, review:open and records:export', async () => {
    expect(await openReview(newer)).toBe(true)
    const forOlder = await token(older)
    const forReview = await token(older)
    const outDir = folder('other-profile-out')
    const forExport = await token(outDir, 'export')
    const live = ctx.sandbox!.control.createCredential({ label: 'review-older' })
    const added = await call<{ id: string }>('profiles:addLive', {
      name: 'Outro perfil',
      baseUrl: ctx.sandbox!.baseUrl,
      network: 'liquid',
      auth: { kind: 'client_credentials', clientId: live.clientId, clientSecret: live.clientSecret },
    })
    if (!added.ok) throw new Error(added.error.code)
    expect((await call('profiles:select', { id: added.data.id })).ok).toBe(true)
    try {
      const compared = await call('review:compareOlder', { folder: forOlder })
      expect(!compared.ok && compared.error.code).toBe('folder_token_other_profile')
      const opened = await call('review:open', { folder: forReview })
      expect(!opened.ok && opened.error.code).toBe('folder_token_other_profile')
      const exported = await call('records:export', { folder: forExport, formats: ['json'] })
      expect(!exported.ok && exported.error.code).toBe('folder_token_other_profile')
      expect(readdirSync(outDir)).toEqual([])
    } finally {
      expect((await call('profiles:select', { id: SANDBOX_PROFILE_ID })).ok).toBe(true)
    }
    // Spent, even though refused: back on the profile it was chosen under, it names nothing.
    const again = await call('review:compareOlder', { folder: forOlder })
    expect(!again.ok && again.error.code).toBe('folder_token_invalid')
  })
})
