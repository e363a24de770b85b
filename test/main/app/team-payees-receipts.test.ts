/**
 * Issue #16 through the app (team-rig.ts: a real PostgreSQL cluster, the real sandbox, one app context per analyst
 * role): the payee book and the receipts are the team's on a team profile. An entry created on one desk is listed
 * on another; two desks saving one entry at once get one save and one clear conflict; a payment names a team
 * entry; its receipt is fetched once, by the leading desk, and read on every desk; a receipt changed in the
 * database is reported, never served; a desk whose team is out of reach is told why.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundingAmount } from '../../../src/main/app/sandbox-tools'
import type { Payee } from '../../../src/shared/payee'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import {
  draft,
  expectNoPasswords,
  leadingNow,
  pay,
  startDesks,
  until,
  type Desk,
  type DeskRig,
} from './team-rig'

announceSkip('team payee book and receipts (postgres + sandbox + app contexts)')

let receiptGets = 0
diagnosticsChannel.channel('undici:request:create').subscribe((msg) => {
  const { request } = msg as { request: { method: string; path: string } }
  if (request.method === 'GET' && request.path.startsWith('/receipts/')) receiptGets += 1
})

type Err = { code: string; userMessage?: { 'pt-BR': string; en: string } }

describe.skipIf(PG_SKIP_REASON !== null)('the team payee book and receipts, through the app', () => {
  let rig: DeskRig
  let alice: Desk
  let bob: Desk

  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob'])
    ;[alice, bob] = rig.desks as [Desk, Desk]
  }, 120_000)
  afterAll(async () => rig?.stop())

  const entry = {
    name: 'Maria da Silva Equipe',
    taxNumber: '529.982.247-25',
    pixKeys: [{ key: 'maria.equipe@example.com' }],
  }

  it('an entry created on one desk is listed on the other, never in either desk’s own file', async () => {
    const created = await alice.call('payees:create', entry)
    expect(created.ok).toBe(true)
    const p = created.data as Payee
    const listed = await bob.call('payees:list', { text: 'silva equipe' })
    expect(listed).toMatchObject({ ok: true, data: { total: 1, rows: [{ id: p.id, name: entry.name }] } })
    expect(await bob.call('payees:get', { id: p.id })).toMatchObject({ ok: true, data: p })
    // This computer's book (the SQLite ledger) stays as it was: the team's entry lives on the team ledger.
    expect(alice.ctx.runtime().team).not.toBeNull()
    const local = (await alice.ctx.router.handle('payees:list', {})) as { ok: boolean }
    expect(local.ok).toBe(true)
    const pool = alice.ctx.runtime().team!.pg!.pool
    const a = await pool.query(`SELECT operator, action FROM audit_log WHERE subject = $1`, [`payee:${p.id}`])
    expect(a.rows).toEqual([{ operator: 'alice', action: 'payee.created' }])
  })

  it('a change of the book on one desk is announced to the other (payee:changed, the id only); a spoofed one is dropped', async () => {
    const heard = (k: Desk, id: string): number | undefined => {
      const i = k.events.findIndex(
        (e) => e.event === 'payee:changed' && (e.payload as { id: string }).id === id,
      )
      return i >= 0 ? k.eventAt[i] : undefined
    }
    const created = await alice.call('payees:create', {
      name: 'Aviso Entre Mesas Ltda',
      taxNumber: '11.222.333/0001-81',
      pixKeys: [{ key: 'aviso.mesas@example.com' }],
    })
    expect(created.ok).toBe(true)
    const p = created.data as Payee
    const at = Date.now()
    const when = await until('bob told', async () => heard(bob, p.id), 3_000)
    expect(when - at).toBeLessThanOrEqual(1_000)
    // Anyone may NOTIFY: a payload that is not an id is dropped; a well-formed one only makes a desk re-read.
    const before = bob.events.filter((e) => e.event === 'payee:changed').length
    const pool = alice.ctx.runtime().team!.pg!.pool
    await pool.query(`SELECT pg_notify('depix_payees', 'not json'), pg_notify('depix_payees', '{"id": 7}')`)
    await new Promise((r) => setTimeout(r, 300))
    expect(bob.events.filter((e) => e.event === 'payee:changed').length).toBe(before)
  })

  it('two desks saving one entry at once: one is saved, the other is told in pt-BR and English', async () => {
    const [first] = ((await bob.call('payees:list', { text: 'silva equipe' })).data as { rows: Payee[] }).rows
    const p = first!
    const [ra, rb] = await Promise.all([
      alice.call('payees:update', {
        id: p.id,
        payee: { ...entry, notes: 'Alice' },
        expectedUpdatedAt: p.updatedAt,
      }),
      bob.call('payees:update', {
        id: p.id,
        payee: { ...entry, notes: 'Bob' },
        expectedUpdatedAt: p.updatedAt,
      }),
    ])
    expect([ra.ok, rb.ok].filter(Boolean)).toHaveLength(1)
    const e = (ra.ok ? rb : ra).error as Err
    expect(e.code).toBe('payee_changed')
    expect(e.userMessage?.['pt-BR']).toMatch(/Nada foi gravado/)
    expect(e.userMessage?.en).toMatch(/Nothing was saved/)
    const saved = (ra.ok ? ra : rb).data as Payee
    expect((await alice.call('payees:get', { id: p.id })).data).toEqual(saved)
    // A removal with what the desk saw before the save is refused the same way.
    expect(await bob.call('payees:remove', { id: p.id, expectedUpdatedAt: p.updatedAt })).toMatchObject({
      ok: false,
      error: { code: 'payee_changed' },
    })
    expect(await bob.call('payees:get', { id: p.id })).toMatchObject({ ok: true })
  })

  it('a payment names a team entry; its receipt is fetched once, by the leader, and read on every desk', async () => {
    const p = (
      (await bob.call('payees:list', { text: 'silva equipe' })).data as {
        rows: Payee[]
      }
    ).rows[0]!
    // bob pays the entry alice created: the withdrawal service checks the draft against the team book.
    const d = { ...draft(p.pixKeys[0]!.key, 12_345), taxNumber: p.taxNumber, payeeId: p.id }
    const q = await bob.call('withdrawals:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { payee: { id: p.id, name: p.name, taxNumber: p.taxNumber } } })
    // A key the team's entry does not have is refused (the desk's own book is not what is asked).
    expect(
      await bob.call('withdrawals:quote', { draft: { ...d, pixKey: 'outra.chave@example.com' } }),
    ).toMatchObject({ ok: false, error: { fields: { pixKey: 'payee_key_not_in_book' } } })
    const created = await pay(bob, d)
    expect(created.ok).toBe(true)
    const rec = created.data as { localId: string; remoteId: string; depositAmountCents: number }
    rig.sb.control.fundWithdrawal(rec.remoteId, fundingAmount(rec.depositAmountCents, 'exact'))
    rig.sb.control.settlePayout(rec.remoteId, 'sent')
    const before = receiptGets
    const [leader] = leadingNow(rig.desks)
    expect(leader).toBeDefined()
    const follower = leader === alice ? bob : alice
    // The follower looks at the record first: it registers the receipt, it does not fetch it.
    await follower.call('withdrawals:refresh', { localId: rec.localId })
    await follower.call('receipts:get', { localId: rec.localId })
    await leader!.call('withdrawals:refresh', { localId: rec.localId })
    const view = await until(
      'the receipt stored',
      async () => {
        const v = (await follower.call('receipts:get', { localId: rec.localId })).data as { state: string }
        return v.state === 'stored' ? v : undefined
      },
      10_000,
    )
    expect(view).toMatchObject({ state: 'stored', mediaType: expect.any(String) })
    const bytesF = (await follower.call('receipts:bytes', { localId: rec.localId })).data as {
      sha256: string
      base64: string
    }
    const bytesL = (await leader!.call('receipts:bytes', { localId: rec.localId })).data as { sha256: string }
    expect(bytesF.sha256).toBe((view as unknown as { sha256: string }).sha256)
    expect(bytesL.sha256).toBe(bytesF.sha256)
    expect(receiptGets - before).toBe(1)
    const pool = leader!.ctx.runtime().team!.pg!.pool
    const row = await pool.query('SELECT fetched_by FROM receipts WHERE local_id = $1', [rec.localId])
    expect(row.rows[0]).toEqual({ fetched_by: leader!.role })
    // Both desks' renderers are told (the database's NOTIFY), not only the one that fetched.
    for (const k of [leader!, follower]) {
      await until('receipt:changed', async () =>
        k.events.some(
          (e) => e.event === 'receipt:changed' && (e.payload as { localId: string }).localId === rec.localId,
        )
          ? true
          : undefined,
      )
    }

    // Changed in the database: reported as damaged, and neither served nor saved.
    const owner = await rig.team.owner()
    await owner.query('ALTER TABLE receipts DISABLE TRIGGER USER')
    try {
      await owner.query(
        `UPDATE receipts SET bytes = bytes || '\\x20'::bytea, size = size + 1 WHERE local_id = $1`,
        [rec.localId],
      )
    } finally {
      await owner.query('ALTER TABLE receipts ENABLE TRIGGER USER')
    }
    expect(await follower.call('receipts:get', { localId: rec.localId })).toMatchObject({
      ok: true,
      data: { state: 'damaged', reason: 'hash_mismatch' },
    })
    expect(await leader!.call('receipts:bytes', { localId: rec.localId })).toMatchObject({
      ok: false,
      error: { code: 'receipt_unavailable' },
    })
  })

  it('a desk whose team server is out of reach is told why instead of reading its own file', async () => {
    const dead = await rig.openDesk('dora', rig.settingsFor('dora', 1), 'dora-pw')
    rig.desks.push(dead)
    for (const [channel, input] of [
      ['payees:list', {}],
      ['payees:create', entry],
      ['receipts:get', { localId: 'x' }],
    ] as const) {
      const r = await dead.call(channel, input)
      expect(r.ok).toBe(false)
      const e = r.error as Err
      expect(e.code).toBe('unavailable')
      expect(e.userMessage?.['pt-BR']).toBeTruthy()
      expect(e.userMessage?.en).toBeTruthy()
    }
    expectNoPasswords(rig)
  })
})
