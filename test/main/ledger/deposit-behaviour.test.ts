/**
 * One deposit behaviour suite, two engines: the embedded SQLite ledger's deposits behind `sqliteDepositStore` and
 * the team ledger's on a real PostgreSQL server (one throwaway cluster for this file). Each engine gets one ledger
 * for the whole file; every test works on its own profile, address and ids.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditVerification } from '../../../src/shared/withdrawal-record'
import { openLedger, type NewDeposit } from '../../../src/main/ledger/sqlite'
import { sqliteDepositStore, type DepositStore } from '../../../src/main/ledger/engines'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

interface Opened {
  deposits: DepositStore
  audit(subject: string): Promise<AuditEntry[]>
  verify(): Promise<AuditVerification>
  done(): Promise<void>
}

interface Engine {
  name: 'sqlite' | 'postgres'
  open(): Promise<Opened>
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deposit-behaviour-'))
      const ledger = openLedger(path.join(dir, 'ledger.sqlite'))
      return {
        deposits: sqliteDepositStore(ledger),
        audit: async (subject) => ledger.audit({ subject }).rows,
        verify: async () => ledger.verifyAuditChain(),
        done: async () => {
          ledger.close()
          fs.rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
]
announceSkip('deposit store behaviour (postgres)')
if (!PG_SKIP_REASON) {
  let team: Team | null = null
  engines.push({
    name: 'postgres',
    open: async () => {
      team = await startTeam()
      const store = await team.desk('ana')
      return {
        deposits: store.deposits,
        audit: async (subject) => (await store.audit({ subject })).rows,
        verify: () => store.verifyAuditChain(),
        done: async () => team?.stop(),
      }
    },
  })
}

const since = '2000-01-01T00:00:00.000Z'

function newDeposit(o: { profile: string; amountCents?: number; address?: string }): NewDeposit {
  return {
    profile: o.profile,
    // Member order as sent, deliberately not alphabetical.
    request: {
      depixAddress: o.address ?? `lq1qq${randomUUID()}`,
      amountInCents: o.amountCents ?? 5_000,
      endUserTaxNumber: '52998224725',
    },
  }
}

const outcome = (remoteId: string, status: string | null = 'pending') => ({
  remoteId,
  createResponse: { id: remoteId, qrCopyPaste: '00020126PIX', valueInCents: 5_000, extra: { kept: true } },
  requestId: `req-${remoteId}`,
  expiration: '2099-01-01T00:00:00.000Z',
  status,
})

describe.each(engines)('DepositStore on $name', (engine) => {
  let e: Opened
  beforeAll(async () => {
    e = await engine.open()
  }, 120_000)
  afterAll(async () => e?.done())

  it('walks the create path with one audit entry per step and a sound chain', async () => {
    const profile = `p-${randomUUID()}`
    const rec = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    expect(rec).toMatchObject({ localState: 'submitting', origin: 'app', amountCents: 5_000 })
    expect(rec.localId.startsWith('dep-')).toBe(true)
    expect(Object.keys(rec.request)).toEqual(['depixAddress', 'amountInCents', 'endUserTaxNumber'])
    const remoteId = `q-${randomUUID()}`
    const created = await e.deposits.markCreated(rec.localId, outcome(remoteId))
    expect(created).toMatchObject({
      localState: 'created',
      remoteId,
      remoteStatus: 'pending',
      qrCopyPaste: '00020126PIX',
      valueCents: 5_000,
      expiration: '2099-01-01T00:00:00.000Z',
    })
    const back = await e.deposits.get(rec.localId)
    expect(back).toEqual(created)
    expect(Object.keys(back!.request)).toEqual(['depixAddress', 'amountInCents', 'endUserTaxNumber'])
    expect(await e.deposits.findByRemoteId(profile, remoteId)).toEqual(created)
    expect((await e.audit(rec.localId)).map((a) => a.action).reverse()).toEqual([
      'deposit.submitting',
      'deposit.created',
    ])
    expect((await e.audit(rec.localId)).every((a) => typeof a.stateHash === 'string')).toBe(true)
    expect((await e.deposits.observations(rec.localId)).map((o) => o.remoteStatus)).toEqual(['pending'])
    expect((await e.deposits.listOpen()).map((r) => r.localId)).toContain(rec.localId)
    expect(await e.verify()).toMatchObject({ ok: true })
  })

  it('refuses illegal transitions, a reused deposit id and unknown records', async () => {
    const profile = `p-${randomUUID()}`
    const a = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    const remoteId = `q-${randomUUID()}`
    await e.deposits.markCreated(a.localId, outcome(remoteId))
    await expect(e.deposits.markCreated(a.localId, outcome(`q-${randomUUID()}`))).rejects.toMatchObject({
      code: 'illegal_transition',
    })
    const b = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    await expect(e.deposits.markCreated(b.localId, outcome(remoteId))).rejects.toMatchObject({
      code: 'duplicate_remote_id',
    })
    expect((await e.deposits.get(b.localId))?.localState).toBe('submitting')
    await expect(e.deposits.markCreated('dep-nope', outcome(`q-${randomUUID()}`))).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(
      e.deposits.insertSubmitting({ profile, request: { depixAddress: 'x' } }, 'Ana'),
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(e.deposits.markRejected(b.localId, null as never)).rejects.toMatchObject({
      code: 'invalid_input',
    })
  })

  it('keeps every different answer, applies only newer ones, raises med_reversal and value_mismatch', async () => {
    const profile = `p-${randomUUID()}`
    const rec = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    await e.deposits.markCreated(rec.localId, outcome(`q-${randomUUID()}`))
    const same = await e.deposits.recordObservation(rec.localId, {
      status: 'pending',
      body: { id: 'x', qrCopyPaste: '00020126PIX', valueInCents: 5_000, extra: { kept: true } },
    })
    expect(same.changed).toBe(true)
    const again = await e.deposits.recordObservation(rec.localId, {
      status: 'pending',
      body: { id: 'x', qrCopyPaste: '00020126PIX', valueInCents: 5_000, extra: { kept: true } },
    })
    expect(again).toMatchObject({ changed: false, applied: false, raised: [] })
    const paid = await e.deposits.recordObservation(rec.localId, {
      status: 'depix_sent',
      body: { status: 'depix_sent', valueInCents: 5_001, bankTxId: 'E123', payerName: 'Fulano' },
    })
    expect(paid).toMatchObject({ changed: true, applied: true, raised: ['value_mismatch'] })
    expect(paid.record).toMatchObject({ remoteStatus: 'depix_sent', bankTxId: 'E123', payerName: 'Fulano' })
    const med = await e.deposits.recordObservation(rec.localId, {
      status: 'refunded',
      body: { status: 'refunded' },
    })
    expect(med.raised).toEqual(['med_reversal'])
    expect(med.record.reversedAt).not.toBeNull()
    expect((await e.deposits.listOpen()).map((r) => r.localId)).not.toContain(rec.localId)
    expect((await e.deposits.observations(rec.localId)).length).toBe(4)
    const actions = (await e.audit(rec.localId)).map((a) => a.action)
    expect(actions.filter((a) => a === 'deposit.observed').length).toBe(3)
    expect(await e.verify()).toMatchObject({ ok: true })
  })

  it('resolves outcome_unknown (linked, not created), replays a journaled answer once, imports outside', async () => {
    const profile = `p-${randomUUID()}`
    const a = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    await e.deposits.markOutcomeUnknown(a.localId, null, 'timeout')
    const linked = await e.deposits.resolveUnknown(a.localId, { depositId: `q-${randomUUID()}` }, 'Ana')
    expect(linked.localState).toBe('created')

    const b = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    await e.deposits.markOutcomeUnknown(b.localId, null, 'timeout')
    expect((await e.deposits.resolveUnknown(b.localId, { notCreated: true }, 'Ana')).localState).toBe(
      'not_created',
    )

    const c = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    const id = `q-${randomUUID()}`
    expect((await e.deposits.applyJournaledCreate(c.localId, outcome(id))).applied).toBe(true)
    expect((await e.deposits.applyJournaledCreate(c.localId, outcome(id))).applied).toBe(false)

    const outside = `q-${randomUUID()}`
    const imported = await e.deposits.importOutside(
      { profile, remoteId: outside, status: 'depix_sent', body: { valueInCents: 777 } },
      'Ana',
    )
    expect(imported).toMatchObject({ origin: 'imported', amountCents: 777, remoteStatus: 'depix_sent' })
    await expect(
      e.deposits.importOutside({ profile, remoteId: outside, status: 'pending', body: {} }, 'Ana'),
    ).rejects.toMatchObject({ code: 'duplicate_remote_id' })
    expect(await e.deposits.knownRemoteIds(profile, [outside, id, 'q-unknown'])).toEqual(
      new Set([outside, id]),
    )
    expect(await e.verify()).toMatchObject({ ok: true })
  })

  it('lists, sums, finds similar deposits and walks them like the SQLite ledger', async () => {
    const profile = `p-${randomUUID()}`
    const address = `lq1qq${randomUUID()}`
    const ids: string[] = []
    for (const cents of [1_000, 2_000, 3_000]) {
      const r = await e.deposits.insertSubmitting(newDeposit({ profile, amountCents: cents, address }), 'Ana')
      ids.push(r.localId)
    }
    await e.deposits.markRejected(ids[0]!, {
      kind: 'business',
      status: 520,
      messageCode: null,
      denialCode: null,
      requestId: null,
    })
    await e.deposits.markCreated(ids[1]!, outcome(`q-${randomUUID()}`))
    const page = await e.deposits.query({ profile })
    expect(page.total).toBe(3)
    expect(page.rows.map((r) => r.localId)).toEqual([...ids].reverse())
    const byAmount = await e.deposits.query({ profile, sort: { field: 'amount', dir: 'asc' } })
    // A created deposit sorts by the value the service reported (5 000), not the 2 000 asked for.
    expect(byAmount.rows.map((r) => r.localId)).toEqual([ids[0], ids[2], ids[1]])
    const totals = await e.deposits.totalsByStatus({ profile })
    expect(Object.fromEntries(totals.map((t) => [t.status, [t.count, t.depositCents]]))).toEqual({
      rejected: [1, 1_000],
      pending: [1, 5_000],
      submitting: [1, 3_000],
    })
    expect((await e.deposits.query({ profile, statuses: ['rejected'] })).rows.map((r) => r.localId)).toEqual([
      ids[0],
    ])
    const similar = await e.deposits.findRecentSimilar({
      profile,
      amountCents: 3_000,
      depixAddress: address,
      sinceIso: since,
    })
    expect(similar.map((r) => r.localId)).toEqual([ids[2]])
    expect(
      await e.deposits.findRecentSimilar({
        profile,
        amountCents: 1_000,
        depixAddress: address,
        sinceIso: since,
      }),
    ).toEqual([])
    const walked: string[] = []
    for await (const r of e.deposits.iterate({ profile, sort: { field: 'createdAt', dir: 'asc' } }))
      walked.push(r.localId)
    expect(walked).toEqual(ids)
  })

  it('guards the insert: a similar top-up counts unless the operator confirmed it at review', async () => {
    const profile = `p-${randomUUID()}`
    const address = `lq1qq${randomUUID()}`
    const first = await e.deposits.createGuarded(newDeposit({ profile, address }), 'Ana', {
      sinceIso: since,
      allow: [],
    })
    expect(first.kind).toBe('inserted')
    const firstId = first.kind === 'inserted' ? first.record.localId : ''
    const again = await e.deposits.createGuarded(newDeposit({ profile, address }), 'Ana', {
      sinceIso: since,
      allow: [],
    })
    expect(again).toMatchObject({ kind: 'duplicate', similar: [{ localId: firstId }] })
    const confirmed = await e.deposits.createGuarded(newDeposit({ profile, address }), 'Ana', {
      sinceIso: since,
      allow: [firstId],
    })
    expect(confirmed.kind).toBe('inserted')
    // Another amount, or older than the window, is no duplicate.
    expect(
      (
        await e.deposits.createGuarded(newDeposit({ profile, address, amountCents: 5_001 }), 'Ana', {
          sinceIso: since,
          allow: [],
        })
      ).kind,
    ).toBe('inserted')
    expect(
      (
        await e.deposits.createGuarded(newDeposit({ profile, address }), 'Ana', {
          sinceIso: '2999-01-01T00:00:00.000Z',
          allow: [],
        })
      ).kind,
    ).toBe('inserted')
  })

  it('turns leftover submitting deposits into outcome_unknown at recovery', async () => {
    const profile = `p-${randomUUID()}`
    const r = await e.deposits.insertSubmitting(newDeposit({ profile }), 'Ana')
    expect(await e.deposits.recoverInterrupted()).toBeGreaterThanOrEqual(1)
    expect((await e.deposits.get(r.localId))?.localState).toBe('outcome_unknown')
    const audit = await e.audit(r.localId)
    expect(audit[0]).toMatchObject({ action: 'deposit.outcome_unknown' })
    expect(audit[0]?.details).toMatchObject({ reason: 'interrupted' })
  })
})
