/**
 * "Devoluções a conciliar" marked reconciled (issue #26), on both engines through the store interface: the
 * embedded SQLite ledger and the team ledger on a real PostgreSQL cluster (where the mark goes through
 * `append_audit`, the analysts' only write path to the audit log). One audited entry per refund, whatever the
 * number of clicks; a payment that did not come back is refused and leaves no entry; the chain stays sound.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileRefund, reconciledAmong, REFUND_RECONCILED } from '../../../src/main/app/refund-reconcile'
import type { LedgerStore } from '../../../src/main/ledger/engines'
import { bothEngines } from '../ledger/engines'

const engines = bothEngines('refund reconciliation', 'refund-reconcile-')

async function payment(store: LedgerStore, status: string): Promise<string> {
  const pixKey = `${randomUUID()}@example.com`
  const localId = randomUUID()
  await store.insertSubmitting(
    {
      localId,
      profile: 'p-reconcile',
      request: { pixKey, payoutAmountInCents: 10_000 },
      pixKey,
      amountKind: 'payout',
      amountCents: 10_000,
    },
    'Ana',
  )
  const remoteId = `w-${randomUUID()}`
  await store.markCreated(localId, {
    remoteId,
    createResponse: { id: remoteId, status: 'pending' },
    requestId: `req-${remoteId}`,
    depositAddress: 'lq1qqexampleaddress',
    depositAmountCents: 10_500,
    status: 'pending',
  })
  if (status !== 'pending') await store.recordObservation(localId, { status, body: { status } })
  return localId
}

describe.each(engines)('refunds marked reconciled on $name', (engine) => {
  let store: LedgerStore
  let done: () => Promise<void>
  beforeAll(async () => {
    ;({ store, done } = await engine.open())
  }, 120_000)
  afterAll(async () => done?.())

  it('one audited mark per refund; listed as reconciled; a second click adds nothing', async () => {
    const refunded = await payment(store, 'refunded')
    const failed = await payment(store, 'error')
    const other = await payment(store, 'refunded')
    expect(await reconciledAmong(store, [refunded, failed, other])).toEqual([])

    const mark = await reconcileRefund(store, refunded, 'Ana')
    expect(await reconcileRefund(store, refunded, 'Bia')).toEqual(mark)
    await reconcileRefund(store, failed, 'Ana')
    expect(await reconciledAmong(store, [refunded, failed, other])).toEqual([refunded, failed])

    const entries = (await store.audit({ subject: refunded })).rows.filter(
      (e) => e.action === REFUND_RECONCILED,
    )
    expect(entries).toHaveLength(1)
    expect(entries[0]!.details).toMatchObject({ remoteStatus: 'refunded', depositAmountCents: 10_500 })
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('a payment that did not come back, or none at all, is refused and leaves no entry', async () => {
    const paid = await payment(store, 'sent')
    const open = await payment(store, 'pending')
    await expect(reconcileRefund(store, paid, 'Ana')).rejects.toMatchObject({ code: 'not_refunded' })
    await expect(reconcileRefund(store, open, 'Ana')).rejects.toMatchObject({ code: 'not_refunded' })
    await expect(reconcileRefund(store, randomUUID(), 'Ana')).rejects.toMatchObject({ code: 'not_found' })
    for (const id of [paid, open]) {
      const rows = (await store.audit({ subject: id })).rows
      expect(rows.some((e) => e.action === REFUND_RECONCILED)).toBe(false)
    }
  })
})
