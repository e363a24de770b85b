/**
 * review:compareOlder through the real router: the export open in the review against an older export the auditor
 * kept, whose folder comes only from the (fake) folder dialog as a one-use token. Real SQLite ledgers, real
 * exports, real links and a real FIFO. Growth between the two is proven; the wrong order, another signer, a head
 * the open export does not carry, a hostile or tampered older folder, and a history rewritten with every hash
 * recomputed and re-signed with the same key are each told apart, never green.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { ReviewOlderCheck } from '../../../src/shared/channels-review'
import { unrelated } from '../records/activity'
import { flipByte } from '../records/helpers'
import {
  app,
  call,
  compare,
  copyOf,
  exportOf,
  folder,
  freshLedger,
  grow,
  KEY,
  ledgers,
  manifestOf,
  openReview,
  resignWith,
  rewriteHistory,
  STRANGER,
  token,
  withoutAnchors,
} from './review-older-fixture'

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

  it('an older export whose head is about no record (an earlier export): proven through the anchors', async () => {
    // Two exports in a row: the second one's head is the first one's `records.exported` entry, about no record,
    // so no later audit.jsonl carries it; the later export's anchors.jsonl does (issue #12).
    const l = freshLedger()
    await exportOf(l)
    const old = await exportOf(l)
    grow(l, 3)
    const later = await exportOf(l)
    expect(await openReview(later)).toBe(true)
    const proven = await compare(old)
    expect(proven.verdict).toBe('extends')
    expect(proven.problems).toEqual([])
    // The later export as made before anchors: the link cannot be shown, amber.
    const bare = copyOf(later, 'no-anchors')
    withoutAnchors(bare)
    expect(await openReview(bare)).toBe(true)
    const r = await compare(old)
    expect(r.verdict).toBe('head_not_carried')
    expect(r.commonRecords).toBe(6)
    expect(r.problems[0]).toContain(`does not carry entry ${r.olderHead!.seq}`)
  })

  it('with a deposit, a run, an observation and an export between, the older head a run entry: extends', async () => {
    const l = freshLedger()
    grow(l, 7)
    unrelated(l, 7)
    const old = await exportOf(l)
    // The older head is then the run's entry: in no withdrawal export's audit.jsonl.
    const head = manifestOf(old)['auditHead'] as { seq: number }
    expect(readFileSync(join(old, 'audit.jsonl'), 'utf8')).not.toContain(`"seq":${head.seq},`)
    unrelated(l, 8)
    await exportOf(l)
    unrelated(l, 9)
    const later = await exportOf(l)
    expect(await openReview(later)).toBe(true)
    const r = await compare(old)
    expect(r.verdict).toBe('extends')
    expect(r.problems).toEqual([])
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
          const dir = copyOf(older, 'tampered')
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
    const dir = copyOf(older, 'stranger')
    resignWith(dir, STRANGER, () => undefined)
    expect(await openReview(newer)).toBe(true)
    const r = await compare(dir)
    expect(r.verdict).toBe('other_signer')
    expect(r.problems[0]).toContain('signed by key')
  })

  it('a history rewritten with every hash recomputed and re-signed with the same key: diverged', async () => {
    // The older side rewritten (what the auditor was handed differs from what the ledger now shows)…
    const forgedOlder = copyOf(older, 'forged-older')
    rewriteHistory(forgedOlder)
    expect(await openReview(newer)).toBe(true)
    let r = await compare(forgedOlder)
    expect(r.verdict).toBe('diverged')
    expect(r.problems.join('\n')).toMatch(/entry \d+ about .* was rewritten/)

    // …and the open side rewritten (the ledger's history changed after the auditor got the older export).
    const forgedNewer = copyOf(newer, 'forged-newer')
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
    const dir = copyOf(newer, 'open-tampered')
    flipByte(join(dir, 'records.json'), 40)
    expect(await openReview(dir)).toBe(false)
    expect((await compare(older)).verdict).toBe('open_not_intact')
  })

  it('an older export made before the audit trail: no_audit', async () => {
    const dir = copyOf(older, 'no-audit')
    // Made before the audit trail, so before anchors (issue #12) too.
    rmSync(join(dir, 'audit.jsonl'))
    rmSync(join(dir, 'anchors.jsonl'))
    resignWith(dir, KEY, (m) => {
      m['auditHead'] = null
      m.files = m.files.filter((f) => f['format'] !== 'audit' && f['format'] !== 'anchors')
    })
    expect(await openReview(newer)).toBe(true)
    const r = await compare(dir)
    expect(r.verdict).toBe('no_audit')
    expect(r.problems[0]).toContain('the older export has no audit head')
  })
  it('an older folder crowded with 12,000 other names is still compared, quickly (the scan stops at 10,000)', async () => {
    const dir = copyOf(older, 'crowded')
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
    const live = app().sandbox!.control.createCredential({ label: 'review-older' })
    const added = await call<{ id: string }>('profiles:addLive', {
      name: 'Outro perfil',
      baseUrl: app().sandbox!.baseUrl,
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
