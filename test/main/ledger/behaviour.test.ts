/**
 * One behaviour suite, two engines: the embedded SQLite ledger behind `sqliteStore` and the team ledger on a real
 * PostgreSQL server (one throwaway cluster for this file). Each engine gets one ledger for the whole file, so
 * every test works on its own keys and profile and never assumes an empty ledger.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite'
import type { LedgerStore } from '../../../src/main/ledger/engines'
import { bothEngines } from './engines'

const engines = bothEngines('ledger-store behaviour', 'store-behaviour-')

const sinceLongAgo = '2000-01-01T00:00:00.000Z'

function newInput(o: Partial<NewWithdrawal> & { profile: string }): NewWithdrawal {
  const amountCents = o.amountCents ?? 12_345
  const pixKey = o.pixKey ?? `${randomUUID()}@example.com`
  return {
    localId: o.localId ?? randomUUID(),
    profile: o.profile,
    request: o.request ?? { pixKey, payoutAmountInCents: amountCents },
    pixKey,
    amountKind: o.amountKind ?? 'payout',
    amountCents,
    ...(o.flags ? { flags: o.flags } : {}),
    ...(o.references ? { references: o.references } : {}),
    ...(o.expectedPayee ? { expectedPayee: o.expectedPayee } : {}),
  }
}

const outcome = (remoteId: string, status: string | null = 'pending') => ({
  remoteId,
  createResponse: { id: remoteId, status, extra: { unknownField: 'kept' } },
  requestId: `req-${remoteId}`,
  depositAddress: 'lq1qqexampleaddress',
  depositAmountCents: 12_845,
  status,
})

describe.each(engines)('LedgerStore on $name', (engine) => {
  let store: LedgerStore
  let done: () => Promise<void>
  beforeAll(async () => {
    ;({ store, done } = await engine.open())
  }, 120_000)
  afterAll(async () => done?.())

  it('walks the create path with one audit entry per step and a sound chain', async () => {
    const profile = `p-${randomUUID()}`
    const rec = await store.insertSubmitting(newInput({ profile }), 'Ana')
    expect(rec.localState).toBe('submitting')
    expect(rec.payoutAmountCents).toBe(12_345)
    const remoteId = `w-${randomUUID()}`
    const created = await store.markCreated(rec.localId, outcome(remoteId))
    expect(created).toMatchObject({
      localState: 'created',
      remoteId,
      remoteStatus: 'pending',
      depositAmountCents: 12_845,
    })
    expect(created.createResponse).toEqual({
      id: remoteId,
      status: 'pending',
      extra: { unknownField: 'kept' },
    })
    expect(await store.get(rec.localId)).toEqual(created)
    expect(await store.findByRemoteId(remoteId)).toEqual(created)
    const audit = await store.audit({ subject: rec.localId })
    expect(audit.rows.map((r) => r.action).reverse()).toEqual(['withdrawal.submitting', 'withdrawal.created'])
    expect(audit.rows.every((r) => typeof r.stateHash === 'string')).toBe(true)
    expect((await store.observations(rec.localId)).map((o) => o.remoteStatus)).toEqual(['pending'])
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('keeps what a payment is for and its payee through every step, searchable, with a sound chain', async () => {
    const profile = `p-${randomUUID()}`
    const references = { invoice: 'NF-2026/0042', costCentre: 'CC Fábrica', note: 'Aluguel de novembro' }
    const expectedPayee = { id: randomUUID(), name: 'Fornecedora Ação Ltda', taxNumber: '11222333000181' }
    const rec = await store.insertSubmitting(newInput({ profile, references, expectedPayee }), 'Ana')
    expect(rec).toMatchObject({ references, expectedPayee })
    // The next write checks the stored row against its audited state: a column the engine drops fails here.
    const created = await store.markCreated(rec.localId, outcome(`w-${randomUUID()}`))
    expect(created).toMatchObject({ localState: 'created', references, expectedPayee })
    const flagged = await store.setFlags(rec.localId, ['checked'], 'Ana')
    expect(await store.get(rec.localId)).toEqual(flagged)
    expect(flagged).toMatchObject({ references, expectedPayee })
    const found = await store.query({ profile, text: 'nf-2026/0042' })
    expect(found.rows.map((r) => r.localId)).toEqual([rec.localId])
    expect((await store.query({ profile, text: 'fornecedora acao' })).total).toBe(1)
    // A record without them has neither member (not empty ones): the state hash is the desk ledger's.
    const plain = await store.insertSubmitting(newInput({ profile }), 'Ana')
    expect('references' in plain || 'expectedPayee' in plain).toBe(false)
    expect(Object.keys((await store.get(plain.localId)) ?? {})).not.toContain('references')
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('refuses illegal transitions, unknown records and inconsistent input, writing nothing', async () => {
    const profile = `p-${randomUUID()}`
    const rec = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(rec.localId, outcome(`w-${randomUUID()}`))
    const head = await store.auditHead()
    await expect(store.markCreated(rec.localId, outcome(`w-${randomUUID()}`))).rejects.toMatchObject({
      code: 'illegal_transition',
    })
    await expect(
      store.markRejected(rec.localId, {
        kind: 'business',
        status: 422,
        messageCode: 'x',
        denialCode: null,
        requestId: null,
      }),
    ).rejects.toMatchObject({ code: 'illegal_transition' })
    await expect(store.markCreated('no-such-record', outcome('w-x'))).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(
      store.insertSubmitting({ ...newInput({ profile }), amountCents: 1 }, 'Ana'),
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(
      store.insertSubmitting({ ...newInput({ profile }), localId: rec.localId }, 'Ana'),
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(store.insertSubmitting(newInput({ profile }), '')).rejects.toMatchObject({
      code: 'invalid_input',
    })
    expect(await store.auditHead()).toEqual(head)
    expect((await store.query({ profile })).total).toBe(1)
  })

  it('links one remote id to one record only', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    const b = await store.insertSubmitting(newInput({ profile }), 'Ana')
    const remoteId = `w-${randomUUID()}`
    await store.markCreated(a.localId, outcome(remoteId))
    await expect(store.markCreated(b.localId, outcome(remoteId))).rejects.toMatchObject({
      code: 'duplicate_remote_id',
    })
    expect((await store.get(b.localId))?.localState).toBe('submitting')
  })

  it('records rejections, unknown outcomes and their resolution', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    const err = { kind: 'business', status: 422, messageCode: 'limit', denialCode: null, requestId: 'r1' }
    expect(await store.markRejected(a.localId, err)).toMatchObject({
      localState: 'rejected',
      requestId: 'r1',
      error: err,
    })
    const b = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markOutcomeUnknown(b.localId, null, 'timeout')
    const linked = await store.resolveUnknown(
      b.localId,
      { withdrawalId: `w-${randomUUID()}`, note: 'suporte' },
      'Bia',
    )
    expect(linked.localState).toBe('created')
    const c = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markOutcomeUnknown(c.localId, null, 'timeout')
    expect((await store.resolveUnknown(c.localId, { notCreated: true }, 'Bia')).localState).toBe(
      'not_created',
    )
    await expect(store.resolveUnknown(c.localId, { notCreated: true }, 'Bia')).rejects.toMatchObject({
      code: 'illegal_transition',
    })
    const actions = (await store.audit({ subject: b.localId })).rows.map((r) => r.action).reverse()
    expect(actions).toEqual(['withdrawal.submitting', 'withdrawal.outcome_unknown', 'withdrawal.resolved'])
  })

  it('replays a journaled create once', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markOutcomeUnknown(a.localId, null, 'store_failed')
    const o = outcome(`w-${randomUUID()}`)
    expect((await store.applyJournaledCreate(a.localId, o)).applied).toBe(true)
    const again = await store.applyJournaledCreate(a.localId, o)
    expect(again.applied).toBe(false)
    expect(again.record.localState).toBe('created')
    await expect(store.applyJournaledCreate(a.localId, outcome('w-other'))).rejects.toMatchObject({
      code: 'illegal_transition',
    })
  })

  it('keeps status observations as history and applies only newer ones', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(a.localId, outcome(`w-${randomUUID()}`, null))
    const later = new Date(Date.now() + 60_000).toISOString()
    const sent = await store.recordObservation(a.localId, {
      status: 'sent',
      body: { status: 'sent', receiverName: 'João' },
      observedAt: later,
    })
    expect(sent).toMatchObject({ changed: true, applied: true })
    expect(sent.record.remoteStatus).toBe('sent')
    expect(sent.record.receiverName).toBe('João')
    const same = await store.recordObservation(a.localId, {
      status: 'sent',
      body: { status: 'sent', receiverName: 'João' },
    })
    expect(same).toMatchObject({ changed: false, applied: false })
    const stale = await store.recordObservation(a.localId, {
      status: 'pending',
      body: { status: 'pending' },
      observedAt: '2001-01-01T00:00:00.000Z',
    })
    expect(stale).toMatchObject({ changed: true, applied: false })
    expect((await store.get(a.localId))?.remoteStatus).toBe('sent')
    expect((await store.observations(a.localId)).map((o) => [o.remoteStatus, o.applied])).toEqual([
      ['sent', true],
      ['pending', false],
    ])
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('an answer naming another address or amount raises the flag and changes what is funded on neither engine', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(a.localId, outcome(`w-${randomUUID()}`, null))
    const r = await store.recordObservation(a.localId, {
      status: 'pending',
      body: {
        status: 'pending',
        depositAddress: 'lq1qqsomeoneelse',
        depositAmountInCents: 1,
        payoutAmountInCents: 2,
      },
    })
    expect(r).toMatchObject({ changed: true, applied: true, raised: ['deposit_address_changed'] })
    expect(r.record).toMatchObject({
      depositAddress: 'lq1qqexampleaddress',
      depositAmountCents: 12_845,
      payoutAmountCents: 12_345,
    })
    expect(await store.get(a.localId)).toMatchObject({
      depositAddress: 'lq1qqexampleaddress',
      depositAmountCents: 12_845,
    })
    const actions = (await store.audit({ subject: a.localId })).rows.map((e) => [e.action, e.details.flags])
    expect(actions.slice(0, 2)).toEqual([
      ['withdrawal.observed', undefined],
      ['withdrawal.flagged', ['deposit_address_changed']],
    ])
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('ranges over the paid date (first "sent" in the history) or the creation date, as the filter says', async () => {
    const profile = `p-${randomUUID()}`
    const paidLater = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(paidLater.localId, outcome(`w-${randomUUID()}`))
    const createdAt = (await store.get(paidLater.localId))!.createdAt
    // Paid two days after it was created: the day it is "paid on" is the later one, whatever it was created on.
    const paidAt = new Date(Date.parse(createdAt) + 2 * 86_400_000).toISOString()
    await store.recordObservation(paidLater.localId, {
      status: 'sent',
      body: { status: 'sent', payoutAmountInCents: 12_345 },
      observedAt: paidAt,
    })
    // A second "sent" answer a day later (another body) does not move the paid day.
    await store.recordObservation(paidLater.localId, {
      status: 'SENT',
      body: { status: 'sent', payoutAmountInCents: 12_345, receiverName: 'Ana' },
      observedAt: new Date(Date.parse(paidAt) + 86_400_000).toISOString(),
    })
    const open = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(open.localId, outcome(`w-${randomUUID()}`))
    const paidDay = {
      from: new Date(Date.parse(paidAt) - 1000).toISOString(),
      to: new Date(Date.parse(paidAt) + 1000).toISOString(),
    }
    const createdDay = {
      from: new Date(Date.parse(createdAt) - 1000).toISOString(),
      to: new Date(Date.parse(createdAt) + 60_000).toISOString(),
    }
    const ids = async (f: object): Promise<string[]> =>
      (await store.query({ profile, sort: { field: 'createdAt', dir: 'asc' }, ...f })).rows.map(
        (r) => r.localId,
      )

    expect(await ids({ ...paidDay, dateBasis: 'paid' })).toEqual([paidLater.localId])
    expect(await ids({ ...paidDay, dateBasis: 'created' })).toEqual([])
    expect(await ids({ ...paidDay })).toEqual([])
    expect(await ids({ ...createdDay, dateBasis: 'created' })).toEqual([paidLater.localId, open.localId])
    expect(await ids({ ...createdDay, dateBasis: 'paid' })).toEqual([])
    // The later repeated answer's day is not a paid day.
    const dayAfter = {
      from: new Date(Date.parse(paidAt) + 3_600_000).toISOString(),
      dateBasis: 'paid' as const,
    }
    expect(await ids(dayAfter)).toEqual([])
    // Without a range, the paid basis is "ever paid".
    expect(await ids({ dateBasis: 'paid' })).toEqual([paidLater.localId])
    const totals = await store.totalsByStatus({ profile, ...paidDay, dateBasis: 'paid' })
    expect(totals).toEqual([expect.objectContaining({ status: 'sent', count: 1, payoutCents: 12_345 })])
    expect(await store.totalsByStatus({ profile, ...paidDay })).toEqual([])
  })

  it('declares funding once per transaction id and audits flag changes', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(a.localId, outcome(`w-${randomUUID()}`))
    const f1 = await store.markFunded(a.localId, { txId: 'tx1' }, 'Ana')
    const f2 = await store.markFunded(a.localId, { txId: 'tx1' }, 'Ana')
    expect(f2.fundedAt).toBe(f1.fundedAt)
    expect((await store.markFunded(a.localId, { txId: 'tx2' }, 'Ana')).fundingTxId).toBe('tx2')
    await store.setFlags(a.localId, ['checked'], 'Bia')
    await store.setFlags(a.localId, ['checked'], 'Bia')
    const actions = (await store.audit({ subject: a.localId })).rows.map((r) => r.action)
    expect(actions.filter((x) => x === 'withdrawal.funded')).toHaveLength(2)
    expect(actions.filter((x) => x === 'withdrawal.flags')).toHaveLength(1)
  })

  it('lists with filters, text search (accents folded), sorting, paging and totals', async () => {
    const profile = `p-${randomUUID()}`
    const amounts = [500, 300, 900, 100, 700]
    const ids: string[] = []
    for (const [i, amountCents] of amounts.entries()) {
      const r = await store.insertSubmitting(
        newInput({ profile, amountCents, pixKey: `fornecedor${i}@acme.com.br` }),
        'Ana',
      )
      ids.push(r.localId)
    }
    await store.markCreated(ids[0] ?? '', outcome(`w-${randomUUID()}`, 'sent'))
    await store.markRejected(ids[1] ?? '', {
      kind: 'business',
      status: 422,
      messageCode: null,
      denialCode: null,
      requestId: null,
    })
    const asc = await store.query({ profile, sort: { field: 'amount', dir: 'asc' }, limit: 2 })
    expect(asc.rows.map((r) => r.amountCents)).toEqual([100, 300])
    expect(asc.total).toBe(5)
    const page2 = await store.query({ profile, sort: { field: 'amount', dir: 'asc' }, limit: 2, offset: 2 })
    expect(page2.rows.map((r) => r.amountCents)).toEqual([500, 700])
    expect((await store.query({ profile, statuses: ['rejected'] })).rows.map((r) => r.localId)).toEqual([
      ids[1],
    ])
    expect((await store.query({ profile, statuses: ['sent'] })).rows.map((r) => r.localId)).toEqual([ids[0]])
    expect((await store.query({ profile, text: 'FORNECEDOR3' })).rows.map((r) => r.localId)).toEqual([ids[3]])
    expect((await store.query({ profile, text: 'nada-assim' })).total).toBe(0)
    const totals = await store.totalsByStatus({ profile })
    expect(totals.find((t) => t.status === 'submitting')).toMatchObject({ count: 3, payoutCents: 1700 })
    expect(totals.find((t) => t.status === 'sent')).toMatchObject({ count: 1 })
    const all: number[] = []
    for await (const r of store.iterate({ profile, sort: { field: 'amount', dir: 'desc' } }))
      all.push(r.amountCents)
    expect(all).toEqual([900, 700, 500, 300, 100])
    const open = await store.listOpen()
    expect(open.some((r) => r.localId === ids[0])).toBe(false)
  })

  it('lists what needs action: unknown outcomes, risky flags and deposits about to expire', async () => {
    const profile = `p-${randomUUID()}`
    const unknown = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markOutcomeUnknown(unknown.localId, null, 'timeout')
    const flagged = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(flagged.localId, outcome(`w-${randomUUID()}`, 'sent'))
    await store.setFlags(flagged.localId, ['pix_key_mismatch'], 'Ana')
    const expiring = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(expiring.localId, {
      ...outcome(`w-${randomUUID()}`, 'unsent'),
      expiration: new Date(Date.now() + 60_000).toISOString(),
    })
    const later = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(later.localId, {
      ...outcome(`w-${randomUUID()}`, 'unsent'),
      expiration: 'not a date',
    })
    const calm = await store.insertSubmitting(newInput({ profile }), 'Ana')
    await store.markCreated(calm.localId, outcome(`w-${randomUUID()}`, 'sent'))
    await store.setFlags(calm.localId, ['checked'], 'Ana')
    const ids = (await store.query({ profile, attention: true })).rows.map((r) => r.localId).sort()
    expect(ids).toEqual([unknown.localId, flagged.localId, expiring.localId].sort())
  })

  it('finds a CPF key typed with or without punctuation, and treats LIKE characters literally', async () => {
    const profile = `p-${randomUUID()}`
    const cpf = await store.insertSubmitting(newInput({ profile, pixKey: '529.982.247-25' }), 'Ana')
    const odd = await store.insertSubmitting(newInput({ profile, pixKey: 'a_b%c@example.com' }), 'Ana')
    await store.insertSubmitting(newInput({ profile, pixKey: 'axbyc@example.com' }), 'Ana')
    const ids = async (text: string) => (await store.query({ profile, text })).rows.map((r) => r.localId)
    expect(await ids('52998224725')).toEqual([cpf.localId])
    expect(await ids('982.247')).toEqual([cpf.localId])
    expect(await ids('a_b%c')).toEqual([odd.localId])
  })

  it('totals refund fees by the first valid fee field, as the desk ledger does', async () => {
    const profile = `p-${randomUUID()}`
    const refunds = [
      { feeInCents: 100 },
      { feeInCents: '100', withheldFeeInCents: 50 },
      { feeInCents: -1, feeWithheldInCents: 1.5, withheldFeeInCents: 25 },
      { reason: 'no fee field' },
    ]
    for (const refund of refunds) {
      const r = await store.insertSubmitting(newInput({ profile }), 'Ana')
      await store.markCreated(r.localId, outcome(`w-${randomUUID()}`, null))
      await store.recordObservation(r.localId, { status: 'refunded', body: { status: 'refunded', refund } })
    }
    const totals = await store.totalsByStatus({ profile })
    expect(totals).toHaveLength(1)
    expect(totals[0]).toMatchObject({ hasRefund: true, count: 4, refundFeeCents: 175 })
  })

  it('finds similar payments case-insensitively, ignoring those that moved no money', async () => {
    const profile = `p-${randomUUID()}`
    const key = `Dup-${randomUUID()}@Example.com`
    const a = await store.insertSubmitting(newInput({ profile, pixKey: key, amountCents: 4200 }), 'Ana')
    const b = await store.insertSubmitting(newInput({ profile, pixKey: key, amountCents: 4200 }), 'Ana')
    await store.markRejected(b.localId, {
      kind: 'business',
      status: 422,
      messageCode: null,
      denialCode: null,
      requestId: null,
    })
    const found = await store.findRecentSimilar({
      pixKey: key.toLowerCase(),
      amountKind: 'payout',
      amountCents: 4200,
      sinceIso: sinceLongAgo,
    })
    expect(found.map((r) => r.localId)).toEqual([a.localId])
    expect(
      await store.findRecentSimilar({
        pixKey: key,
        amountKind: 'payout',
        amountCents: 4201,
        sinceIso: sinceLongAgo,
      }),
    ).toEqual([])
  })

  it('guards duplicates at create: a second same payment waits for confirmation', async () => {
    const profile = `p-${randomUUID()}`
    const key = `guard-${randomUUID()}@example.com`
    const first = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
    })
    expect(first.kind).toBe('inserted')
    const second = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
    })
    expect(second.kind).toBe('duplicate')
    expect(second.kind === 'duplicate' && second.similar.length).toBe(1)
    expect((await store.query({ profile })).total).toBe(1)
    const confirmed = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
      confirmed: true,
    })
    expect(confirmed.kind).toBe('inserted')
  })

  it('counts only similar records not already confirmed, and only the guarded profile when one is named', async () => {
    const profile = `p-${randomUUID()}`
    const key = `allow-${randomUUID()}@example.com`
    const first = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
    })
    if (first.kind !== 'inserted') throw new Error('first not inserted')
    // The operator saw and confirmed `first`: it does not count.
    const second = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
      allow: [first.record.localId],
    })
    expect(second.kind).toBe('inserted')
    // A record that appeared since (`second`) counts even with `first` confirmed.
    const third = await store.createGuarded(newInput({ profile, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
      allow: [first.record.localId],
    })
    expect(third.kind === 'duplicate' && third.similar.map((r) => r.localId)).toEqual([
      second.kind === 'inserted' && second.record.localId,
    ])
    // Another profile's payments do not count when the guard names a profile, and do when it names none.
    const other = `p-${randomUUID()}`
    const scoped = await store.createGuarded(newInput({ profile: other, pixKey: key }), 'Ana', {
      sinceIso: sinceLongAgo,
      profile: other,
    })
    expect(scoped.kind).toBe('inserted')
    const unscoped = await store.createGuarded(
      newInput({ profile: `p-${randomUUID()}`, pixKey: key }),
      'Ana',
      {
        sinceIso: sinceLongAgo,
      },
    )
    expect(unscoped.kind).toBe('duplicate')
  })

  it('turns interrupted submissions into unknown outcomes, never resending', async () => {
    const profile = `p-${randomUUID()}`
    const a = await store.insertSubmitting(newInput({ profile }), 'Ana')
    expect(await store.recoverInterrupted()).toBeGreaterThanOrEqual(1)
    expect((await store.get(a.localId))?.localState).toBe('outcome_unknown')
    expect(await store.recoverInterrupted()).toBe(0)
  })

  it('appends free audit entries and reads them by subject, newest first', async () => {
    const subject = `s-${randomUUID()}`
    await store.appendAudit({
      operator: 'Ana',
      action: 'export.created',
      subject,
      details: { rows: 3, nome: 'ação "x"\n\u0001' },
    })
    await store.appendAudit({ operator: 'Ana', action: 'export.verified', subject })
    const r = await store.audit({ subject })
    expect(r.total).toBe(2)
    expect(r.rows.map((x) => x.action)).toEqual(['export.verified', 'export.created'])
    expect(r.rows[1]?.details).toMatchObject({ rows: 3, nome: 'ação "x"\n\u0001' })
    await expect(store.appendAudit({ operator: '', action: 'x' })).rejects.toMatchObject({
      code: 'invalid_input',
    })
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })
})
