/**
 * A team export carries the stored receipts (issue #16), through the real router of two desks (team-rig.ts: a
 * real PostgreSQL cluster, the real sandbox, one app context per analyst role): the leading desk pays, its
 * tracker sees the payout sent and fetches the receipt into the team ledger; the OTHER desk exports with
 * receipts, and the export verifies intact with the receipt's bytes listed in its manifest. A receipt the owner
 * changed in the database, with or without its hash, is not exported as good.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundingAmount } from '../../../src/main/app/sandbox-tools'
import { sha256Hex } from '../../../src/main/receipts'
import { verifyExport } from '../../../src/main/records'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { draft, leadingNow, pay, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('team export with receipts (postgres + sandbox + app contexts)')

interface Entry {
  name: string
  format: string
  localId?: string
  sha256: string
}

describe.skipIf(PG_SKIP_REASON !== null)('a team export with the stored receipts, through the app', () => {
  let rig: DeskRig
  let leader: Desk
  let other: Desk
  let root: string
  let localId = ''
  let stored: Buffer
  const dialog = new Map<string, string[]>()

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'team-export-receipts-'))
    rig = await startDesks(['alice', 'bob'], {
      chooseDirectory: (role) => Promise.resolve(dialog.get(role)?.shift() ?? null),
    })
    leader = await until('a leader', () => Promise.resolve(leadingNow(rig.desks)[0]))
    other = rig.desks.find((d) => d !== leader)!
  }, 120_000)
  afterAll(async () => {
    await rig?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  const exportOn = async (k: Desk, name: string): Promise<{ folder: string; manifestPath: string }> => {
    const dir = join(root, name)
    mkdirSync(dir, { recursive: true })
    dialog.set(k.role, [dir])
    const t = await k.call('dialog:chooseFolder', { purpose: 'export' })
    expect(t.ok).toBe(true)
    const r = await k.call('records:export', {
      folder: (t.data as { token: string }).token,
      formats: ['json'],
      includeReceipts: true,
    })
    expect(r.ok).toBe(true)
    const manifestPath = (r.data as { manifestPath: string }).manifestPath
    return { manifestPath, folder: dirname(manifestPath) }
  }
  const receiptsIn = (manifestPath: string): Entry[] =>
    (JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Entry[] }).files.filter(
      (f) => f.format === 'receipt',
    )
  const fingerprintOf = async (k: Desk): Promise<string> =>
    ((await k.call('records:publicKey')).data as { fingerprint: string }).fingerprint
  const lastExported = async (): Promise<Record<string, unknown>> => {
    const owner = await rig.team.owner()
    const r = await owner.query(
      `SELECT operator, details FROM audit_log WHERE action = 'records.exported' ORDER BY seq DESC LIMIT 1`,
    )
    const row = r.rows[0] as { operator: string; details: string }
    return { operator: row.operator, ...(JSON.parse(row.details) as Record<string, unknown>) }
  }

  it('the leader pays and fetches the receipt; the other desk’s export holds it and verifies intact', async () => {
    const created = await pay(leader, draft('recibo.equipe@example.com', 4_321))
    expect(created.ok).toBe(true)
    const rec = created.data as { localId: string; remoteId: string; depositAmountCents: number }
    localId = rec.localId
    rig.sb.control.fundWithdrawal(rec.remoteId, fundingAmount(rec.depositAmountCents, 'exact'))
    rig.sb.control.settlePayout(rec.remoteId, 'sent')
    await leader.call('withdrawals:refresh', { localId })
    const view = await until(
      'the receipt stored',
      async () => {
        const v = (await other.call('receipts:get', { localId })).data as { state: string; sha256?: string }
        return v.state === 'stored' ? v : undefined
      },
      15_000,
    )
    const row = await (
      await rig.team.owner()
    ).query('SELECT bytes, fetched_by FROM receipts WHERE local_id = $1', [localId])
    const r0 = row.rows[0] as { bytes: Buffer; fetched_by: string }
    expect(r0.fetched_by).toBe(leader.role)
    stored = r0.bytes
    expect(sha256Hex(stored)).toBe(view.sha256)

    const res = await exportOn(other, 'intact')
    const v = await verifyExport(res.manifestPath, { expectFingerprint: await fingerprintOf(other) })
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    const listed = receiptsIn(res.manifestPath)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ localId, sha256: sha256Hex(stored) })
    expect(readFileSync(join(res.folder, listed[0]!.name)).equals(stored)).toBe(true)
    expect(await lastExported()).toMatchObject({ operator: other.role, receipts: 1, receiptsSkipped: 0 })
    // The secrets stay out of the receipts member too.
    for (const f of readdirSync(join(res.folder, 'receipts'))) {
      const text = readFileSync(join(res.folder, 'receipts', f), 'latin1')
      for (const secret of [...rig.passwords, rig.sb.credentials.clientSecret])
        expect(text).not.toContain(secret)
    }
  })

  it('a receipt the owner changed, without and then with its hash, is not exported as good', async () => {
    const owner = await rig.team.owner()
    const forged = Buffer.concat([stored, Buffer.from(' ')])
    const edit = async (sql: string, params: unknown[]): Promise<void> => {
      await owner.query('ALTER TABLE receipts DISABLE TRIGGER USER')
      try {
        await owner.query(sql, params)
      } finally {
        await owner.query('ALTER TABLE receipts ENABLE TRIGGER USER')
      }
    }
    await edit('UPDATE receipts SET bytes = $2, size = $3 WHERE local_id = $1', [
      localId,
      forged,
      forged.length,
    ])
    const one = await exportOn(other, 'bytes-changed')
    expect((await verifyExport(one.manifestPath)).ok).toBe(true)
    expect(receiptsIn(one.manifestPath)).toEqual([])
    expect(readdirSync(one.folder)).not.toContain('receipts')
    expect(await lastExported()).toMatchObject({ receipts: 0, receiptsSkipped: 1 })

    await edit('UPDATE receipts SET sha256 = $2 WHERE local_id = $1', [localId, sha256Hex(forged)])
    const two = await exportOn(leader, 'bytes-and-hash-changed')
    expect((await verifyExport(two.manifestPath)).ok).toBe(true)
    expect(receiptsIn(two.manifestPath)).toEqual([])
    expect(readdirSync(two.folder)).not.toContain('receipts')
    expect(await lastExported()).toMatchObject({ operator: leader.role, receipts: 0, receiptsSkipped: 1 })
  })
})
