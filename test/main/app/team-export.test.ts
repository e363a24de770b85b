/**
 * Exports and the offline review on a team profile (issue #16), through the real router of two desks (two app
 * contexts, two analyst roles) on one team ledger and the real sandbox (team-rig.ts): `records:export` writes
 * every desk's payments, signed with the exporting desk's key, and its `records.exported` entry is chained by the
 * database under that desk's role; `review:checkLedger` checks an export against the team ledger; a row edited
 * with plain SQL makes both refuse, in pt-BR and English.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyExport } from '../../../src/main/records'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { draft, pay, startDesks, type Desk, type DeskRig, type Result } from './team-rig'

announceSkip('team export and review (postgres + sandbox + app contexts)')

const localIdOf = (r: Result): string => (r.data as { localId: string }).localId

describe.skipIf(PG_SKIP_REASON !== null)('exports and review on a team profile, through the app', () => {
  let rig: DeskRig
  let alice: Desk
  let bob: Desk
  let root: string
  const dialog = new Map<string, string[]>()
  const made: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'team-export-'))
    rig = await startDesks(['alice', 'bob'], {
      chooseDirectory: (role) => Promise.resolve(dialog.get(role)?.shift() ?? null),
    })
    ;[alice, bob] = rig.desks as [Desk, Desk]
    for (const [k, who] of [
      [alice, 'alice'],
      [bob, 'bob'],
      [alice, 'alice'],
      [bob, 'bob'],
    ] as const) {
      const r = await pay(k, draft(`${who}-${made[who].length}@example.com`, 1_500 + made[who].length))
      expect(r.ok).toBe(true)
      made[who].push(localIdOf(r))
    }
  }, 120_000)
  afterAll(async () => {
    await rig?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  async function token(k: Desk, purpose: 'export' | 'review', dir: string): Promise<string> {
    mkdirSync(dir, { recursive: true })
    dialog.set(k.role, [dir])
    const r = await k.call('dialog:chooseFolder', { purpose })
    expect(r.ok).toBe(true)
    return (r.data as { token: string }).token
  }

  async function exportOn(k: Desk, dir: string, extra: Record<string, unknown> = {}): Promise<Result> {
    return k.call('records:export', {
      folder: await token(k, 'export', dir),
      formats: ['csv', 'json', 'html'],
      ...extra,
    })
  }

  const fingerprintOf = async (k: Desk): Promise<string> =>
    ((await k.call('records:publicKey')).data as { fingerprint: string }).fingerprint

  let aliceExport = ''

  it('a team desk exports every desk’s records, signed with its own key, and the database records it', async () => {
    const r = await exportOn(alice, join(root, 'alice-1'), { includeReceipts: true })
    expect(r.ok).toBe(true)
    const data = r.data as { manifestPath: string; rowCount: number }
    const res = { ...data, folder: dirname(data.manifestPath) }
    aliceExport = res.folder
    const all = [...made.alice, ...made.bob]
    expect(res.rowCount).toBe(all.length)

    const v = await verifyExport(res.manifestPath, { expectFingerprint: await fingerprintOf(alice) })
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    // Signed by alice's desk, not bob's: each installation has its own key.
    const wrongKey = await verifyExport(res.manifestPath, { expectFingerprint: await fingerprintOf(bob) })
    expect(wrongKey.ok).toBe(false)

    const records = JSON.parse(readFileSync(join(res.folder, 'records.json'), 'utf8')) as {
      records: Array<{ localId: string }>
    }
    expect(records.records.map((x) => x.localId).sort()).toEqual([...all].sort())
    // Each record's trail is there, attributed by the database to the role that wrote it.
    const audit = readFileSync(join(res.folder, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { subject: string | null; operator: string; action: string })
    for (const who of ['alice', 'bob'] as const) {
      for (const id of made[who]) {
        const created = audit.find((e) => e.subject === id && e.action === 'withdrawal.created')
        expect(created?.operator).toBe(who)
      }
    }
    // No payment here was sent, so none has a receipt: nothing listed (team-export-receipts.test.ts has them).
    const m = v.manifest!
    expect(m.files.map((f) => f.format).sort()).toEqual(['anchors', 'audit', 'csv', 'html', 'json'])
    expect(readdirSync(res.folder)).not.toContain('receipts')
    // No desk's password (nor the sandbox's client secret) in anything the export wrote.
    for (const f of readdirSync(res.folder)) {
      const text = readFileSync(join(res.folder, f), 'utf8')
      for (const secret of [...rig.passwords, rig.sb.credentials.clientSecret])
        expect(text).not.toContain(secret)
    }

    const owner = await rig.team.owner()
    const last = (
      await owner.query(`SELECT seq, operator, action, details FROM audit_log ORDER BY seq DESC LIMIT 1`)
    ).rows[0] as { operator: string; action: string; details: string }
    expect(last).toMatchObject({ operator: 'alice', action: 'records.exported' })
    const details = JSON.parse(last.details) as Record<string, unknown>
    // Every desk reads this entry: it names the export's folder, not this desk's path to it.
    expect(details).toMatchObject({
      rowCount: all.length,
      auditHead: m.auditHead,
      folder: basename(res.folder),
    })
    expect(String(details.folder)).not.toContain('/')
    expect(details.manifestSha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('another desk’s export anchors the first one and verifies with its own key', async () => {
    const r = await exportOn(bob, join(root, 'bob-1'), { formats: ['json'] })
    expect(r.ok).toBe(true)
    const data = r.data as { manifestPath: string }
    const res = { ...data, folder: dirname(data.manifestPath) }
    const v = await verifyExport(res.manifestPath, { expectFingerprint: await fingerprintOf(bob) })
    expect(v.problems).toEqual([])
    const first = JSON.parse(readFileSync(join(aliceExport, 'manifest.json'), 'utf8')) as {
      auditHead: { seq: number; hash: string }
    }
    const anchors = readFileSync(join(res.folder, 'anchors.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; hash: string })
    expect(anchors).toContainEqual(expect.objectContaining(first.auditHead))
  })

  it('review:checkLedger on a team profile checks the export against the team ledger', async () => {
    const opened = await bob.call('review:open', { folder: await token(bob, 'review', aliceExport) })
    expect(opened).toMatchObject({ ok: true, data: { ok: true } })
    const check = async () =>
      (await bob.call('review:checkLedger')).data as { verdict: string; problems: string[] }
    expect(await check()).toMatchObject({ verdict: 'match', problems: [] })
    // The team ledger going on (another payment by another desk) keeps the export part of its history.
    const more = await pay(alice, draft('alice-later@example.com', 1_777))
    expect(more.ok).toBe(true)
    made.alice.push(localIdOf(more))
    expect(await check()).toMatchObject({ verdict: 'match' })

    // A record changed since the export with plain SQL, out of the app: the team ledger no longer vouches.
    const owner = await rig.team.owner()
    const target = made.bob[0]!
    const before = (await owner.query('SELECT amount_cents FROM withdrawals WHERE local_id = $1', [target]))
      .rows[0] as { amount_cents: string }
    await owner.query('UPDATE withdrawals SET amount_cents = amount_cents + 100 WHERE local_id = $1', [
      target,
    ])
    try {
      const broken = await check()
      expect(broken.verdict).toBe('ledger_broken')
      expect(broken.problems.join(' ')).toContain(target)

      // The same edit makes an export refuse, with the ledger's own message, and leave nothing behind.
      const dir = join(root, 'refused')
      const refused = await exportOn(alice, dir)
      expect(refused).toMatchObject({ ok: false, error: { code: 'audit_chain_broken' } })
      const msg = (refused.error as { userMessage: { 'pt-BR': string; en: string } }).userMessage
      expect(msg['pt-BR']).toMatch(/trilha de auditoria do livro-caixa da equipe não confere/)
      expect(msg.en).toMatch(/team ledger's audit trail does not check out/)
      // A server's ledger is not restored from this computer's backups: the advice names who runs it.
      expect(msg['pt-BR']).not.toMatch(/backup/)
      expect(msg['pt-BR']).toMatch(/avise o responsável/)
      expect(readdirSync(dir)).toEqual([])
    } finally {
      await owner.query('UPDATE withdrawals SET amount_cents = $2 WHERE local_id = $1', [
        target,
        before.amount_cents,
      ])
    }
    expect(await check()).toMatchObject({ verdict: 'match' })
  })

  it('an export of this computer’s ledger is not part of the team ledger’s history', async () => {
    // The Sandbox profile is on this computer's ledger: export there, then check it on the team profile.
    const teamProfile = bob.profileId
    expect((await bob.call('profiles:select', { id: 'sandbox' })).ok).toBe(true)
    const local = await exportOn(bob, join(root, 'bob-local'), { formats: ['json'] })
    expect((await bob.call('profiles:select', { id: teamProfile })).ok).toBe(true)
    expect(local.ok).toBe(true)
    const folder = dirname((local.data as { manifestPath: string }).manifestPath)
    expect((await bob.call('review:open', { folder: await token(bob, 'review', folder) })).ok).toBe(true)
    const r = (await bob.call('review:checkLedger')).data as { verdict: string }
    expect(r.verdict).not.toBe('match')
  })

  it('a team profile whose server is out of reach refuses to export with the reason', async () => {
    const dead = await rig.openDesk('dave', rig.settingsFor('dave', 1), 'dave-pw')
    rig.desks.push(dead)
    const dir = join(root, 'dead')
    const r = await exportOn(dead, dir)
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    const msg = (r.error as { userMessage: { 'pt-BR': string; en: string } }).userMessage
    expect(msg['pt-BR']).not.toBe('')
    expect(msg.en).not.toBe('')
    expect(readdirSync(dir)).toEqual([])
  })
})
