/**
 * After the create, on the real sandbox: the tracker follows a deposit through payment to the DePix sent (with
 * its Liquid txid) within GET /deposit-status's own allowance; a MED raises the alert; reconciliation finds a
 * deposit made outside the app (importable, marked as such) and a MED the tracker had stopped watching; the
 * end user's daily limits read in cents.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_REQUESTS } from '../../../src/main/deposits/reconcile'
import { startSandbox } from '../../../src/main/sandbox'
import {
  depositDraft,
  depositRig,
  PAYER_CPF,
  reviewedDeposit,
  TREASURY_ADDRESS,
  waitFor,
  type DepositRig,
} from './helpers'

let r: DepositRig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

const FAST = { cadence: { hotIntervalMs: 100, resyncMs: 200 } }

describe('tracking', () => {
  it('pending → approved → depix_sent with the Liquid txid, polled by the tracker alone', async () => {
    r = await depositRig({ sandbox: { depositSendSeconds: 1 }, service: { tracker: FAST } })
    const rec = await reviewedDeposit(r.service, depositDraft())
    r.service.tracker.start()
    await waitFor('pending', () => r!.ledger.deposits.get(rec.localId)?.remoteStatus === 'pending')
    r.sb.control.payDeposit(rec.remoteId as string, { payerName: 'Tesouraria Ltda' })
    await waitFor('approved', () => r!.ledger.deposits.get(rec.localId)?.remoteStatus === 'approved')
    r.sb.control.advanceClock(2)
    const sent = await waitFor('depix_sent', () => {
      const x = r!.ledger.deposits.get(rec.localId)
      return x?.remoteStatus === 'depix_sent' ? x : undefined
    })
    expect(sent.blockchainTxId).toMatch(/^[0-9a-f]{64}$/)
    expect(sent.bankTxId).toMatch(/\S/)
    expect(sent.payerName).toBe('Tesouraria Ltda')
    expect(r.ledger.deposits.observations(rec.localId).map((o) => o.remoteStatus)).toEqual([
      'pending',
      'approved',
      'depix_sent',
    ])
    // Its own allowance: the withdrawal status endpoint was never used, and no 429 was earned.
    expect(r.sb.control.requestCounts()['GET /api/withdraw-status'] ?? 0).toBe(0)
    expect(r.client.allowance()['deposit-status'].limitPerMinute).toBe(60)
    expect(r.posts()).toBe(1)
  })

  it('a QR left unpaid expires and polling stops', async () => {
    r = await depositRig({ sandbox: { depositTtlSeconds: 60 } })
    const rec = await reviewedDeposit(r.service, depositDraft())
    r.sb.control.advanceClock(61)
    const after = await r.service.refresh(rec.localId)
    expect(after.remoteStatus).toBe('expired')
    expect(r.ledger.deposits.listOpen()).toEqual([])
  })

  it('a delayed deposit shows delayUntil and the rejection reasons the service reports are kept raw', async () => {
    r = await depositRig()
    const rec = await reviewedDeposit(r.service, depositDraft({ delayHours: 2 }))
    expect(rec.request).toMatchObject({ delayDepixInHours: 2 })
    r.sb.control.payDeposit(rec.remoteId as string)
    const held = await r.service.refresh(rec.localId)
    expect(held.remoteStatus).toBe('delayed')
    expect(typeof held.lastRemote?.delayUntil).toBe('string')
  })

  it('a MED on a paid deposit raises the alert with principal and date, and stops tracking', async () => {
    r = await depositRig({ sandbox: { depositSendSeconds: 0 } })
    const rec = await reviewedDeposit(r.service, depositDraft())
    r.sb.control.payDeposit(rec.remoteId as string)
    expect((await r.service.refresh(rec.localId)).remoteStatus).toBe('depix_sent')
    r.sb.control.fileMed(rec.remoteId as string)
    const med = await r.service.refresh(rec.localId)
    expect(med).toMatchObject({ remoteStatus: 'refunded', valueCents: 50_000 })
    expect(med.flags).toContain('med_reversal')
    expect(Date.parse(med.reversedAt as string)).not.toBeNaN()
    expect(
      r.ledger.deposits.query({ attention: true, profile: 'sandbox' }).rows.map((x) => x.localId),
    ).toEqual([rec.localId])
  })
})

describe('reconciliation (GET /deposits)', () => {
  it('lists a deposit made outside the app, never ours; import marks it and tracks it', async () => {
    r = await depositRig()
    const ours = await reviewedDeposit(r.service, depositDraft())
    const outside = r.sb.control.createDeposit({
      amountInCents: 7_000,
      depixAddress: TREASURY_ADDRESS,
      endUserTaxNumber: PAYER_CPF,
    })
    r.sb.control.payDeposit(outside.qrId)
    const rec = await r.service.reconcile()
    expect(rec.outside.map((o) => o.qrId)).toEqual([outside.qrId])
    expect(rec.outside[0]).toMatchObject({ status: 'approved', bankTxId: expect.any(String) })
    expect(rec.rows).toBe(2)
    expect(rec.incomplete).toBe(false)
    expect(r.service.lastReconciliation()).toEqual(rec)
    const imported = await r.service.importOutside(outside.qrId)
    expect(imported).toMatchObject({
      origin: 'imported',
      remoteId: outside.qrId,
      amountCents: 7_000,
      remoteStatus: 'approved',
      request: {},
    })
    expect(r.service.lastReconciliation()?.outside).toEqual([])
    await expect(r.service.importOutside(outside.qrId)).rejects.toMatchObject({ code: 'remote_id_in_use' })
    await expect(r.service.importOutside('no-such-deposit')).rejects.toMatchObject({
      code: 'remote_not_found',
    })
    const again = await r.service.reconcile()
    expect(again.outside).toEqual([])
    expect(r.ledger.deposits.get(ours.localId)?.origin).toBe('app')
    expect(r.posts()).toBe(1)
  })

  it('finds a MED on a deposit the tracker no longer watches, by asking about it again', async () => {
    r = await depositRig({ sandbox: { depositSendSeconds: 0 } })
    const rec = await reviewedDeposit(r.service, depositDraft())
    r.sb.control.payDeposit(rec.remoteId as string)
    await r.service.refresh(rec.localId)
    r.sb.control.fileMed(rec.remoteId as string)
    const gets = r.statusGets()
    const sweep = await r.service.reconcile()
    expect(sweep.refreshed).toBe(1)
    expect(r.statusGets()).toBe(gets + 1)
    expect(r.ledger.deposits.get(rec.localId)?.flags).toContain('med_reversal')
  })

  it('a window that comes back with 200 rows is split until each part holds fewer', async () => {
    const sb = await startSandbox({ requireDepositIdentification: false })
    try {
      // The sweep's window follows the sandbox's clock, which moves 30 s between deposits.
      r = await depositRig({ sb, service: { now: () => sb.control.now() } })
      for (let i = 0; i < 230; i++) {
        sb.control.createDeposit({ amountInCents: 1_000 + i, depixAddress: TREASURY_ADDRESS })
        sb.control.advanceClock(30)
      }
      const sweep = await r.service.reconcile(1)
      expect(new Set(sweep.outside.map((o) => o.qrId)).size).toBe(230)
      expect(sweep.incomplete).toBe(false)
      const gets = sb.control.requestCounts()['GET /api/deposits'] ?? 0
      expect(gets).toBeGreaterThan(1)
      expect(gets).toBeLessThanOrEqual(MAX_REQUESTS)
    } finally {
      await r?.close()
      r = undefined
      await sb.close()
    }
  })

  it('a minute that still holds 200 rows is reported incomplete, not silently cut', async () => {
    // All in one instant: no split can separate them. Limits raised so the test need not wait for the allowance.
    r = await depositRig({
      sandbox: { requireDepositIdentification: false, rateLimits: { deposits: 600 } },
      rateLimits: { deposits: 600 },
    })
    for (let i = 0; i < 200; i++)
      r.sb.control.createDeposit({ amountInCents: 1_000 + i, depixAddress: TREASURY_ADDRESS })
    const sweep = await r.service.reconcile(1)
    expect(sweep.incomplete).toBe(true)
    expect(r.sb.control.requestCounts()['GET /api/deposits']).toBeLessThanOrEqual(MAX_REQUESTS)
  })
})

describe('end-user limits (GET /user-info)', () => {
  it('daily ceiling, used today (open QR codes included) and reset time; an unknown EUID is refused', async () => {
    r = await depositRig()
    await reviewedDeposit(r.service, depositDraft({ endUserTaxNumber: undefined, euid: 'EU-SANDBOX-0001' }))
    const info = await r.service.userInfo('EU-SANDBOX-0001')
    expect(info.euid).toBe('EU-SANDBOX-0001')
    expect(info.usedTodayCents).toBe(50_000)
    expect(Number.isSafeInteger(info.maxDailyCents)).toBe(true)
    expect(Date.parse(info.resetsAt as string)).toBeGreaterThan(Date.now())
    await expect(r.service.userInfo('EU-NOBODY-9')).rejects.toMatchObject({
      messageCode: 'END_USER_NOT_FOUND',
    })
  })
})
