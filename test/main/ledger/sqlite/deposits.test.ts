/**
 * Deposits as the ledger's second record kind (migration 8): the same lifecycle and audit trail as withdrawals,
 * through the one write path, on a real SQLite file.
 */
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { LedgerError, openLedger, type Ledger } from '../../../../src/main/ledger/sqlite/index'
import { LATEST_VERSION } from '../../../../src/main/ledger/sqlite/migrations'
import { tempLedger, track } from './helpers'

const ADDRESS = 'ex1qexampletreasuryaddress'
const body = (amountInCents = 50_000) => ({
  amountInCents,
  depixAddress: ADDRESS,
  endUserTaxNumber: '52998224725',
})

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn()
  } catch (e) {
    return e instanceof LedgerError ? e.code : `not a LedgerError: ${String(e)}`
  }
  return undefined
}

function created(ledger: Ledger, remoteId = 'qr-1', amount = 50_000) {
  const rec = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body(amount) }, 'ana')
  return ledger.deposits.markCreated(rec.localId, {
    remoteId,
    createResponse: {
      id: remoteId,
      qrCopyPaste: '000201TESTPAYLOAD6304ABCD',
      expiration: '2025-03-01T12:30:00.000Z',
    },
    requestId: 'req-1',
    expiration: '2025-03-01T12:30:00.000Z',
    status: null,
  })
}

describe('migration 8', () => {
  it('reaches the latest version with the deposits tables and their guards', () => {
    const { ledger, file } = tempLedger()
    expect(ledger.schemaVersion).toBe(LATEST_VERSION)
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(8)
    ledger.close()
    const db = new DatabaseSync(file)
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")
      .all()
      .map((r) => String(r.name))
    db.close()
    for (const n of [
      'deposits',
      'deposit_observations',
      'deposits_no_delete',
      'deposit_observations_no_update',
    ])
      expect(names).toContain(n)
  })
})

describe('deposit lifecycle', () => {
  it('submitting → created keeps the exact body, the QR payload and expiry, audited as deposit.*', () => {
    const { ledger } = tempLedger()
    const sub = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body() }, 'ana')
    expect(sub).toMatchObject({
      localState: 'submitting',
      origin: 'app',
      amountCents: 50_000,
      depixAddress: ADDRESS,
    })
    expect(sub.localId).toMatch(/^dep-[0-9a-f-]{36}$/)
    const rec = created(ledger)
    expect(rec).toMatchObject({
      localState: 'created',
      remoteId: 'qr-1',
      qrCopyPaste: '000201TESTPAYLOAD6304ABCD',
      expiration: '2025-03-01T12:30:00.000Z',
    })
    expect(ledger.deposits.get(rec.localId)).toEqual(rec)
    const actions = ledger.audit({ subject: rec.localId }).rows.map((r) => r.action)
    expect(actions.reverse()).toEqual(['deposit.submitting', 'deposit.created'])
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: true })
    // A deposit is not a withdrawal: the withdrawal list does not see it.
    expect(ledger.query().total).toBe(0)
    expect(ledger.deposits.query().total).toBe(2)
    expect(ledger.deposits.get(sub.localId)?.localState).toBe('submitting')
  })

  it('refuses a body without a positive amount, and illegal transitions, writing nothing', () => {
    const { ledger } = tempLedger()
    expect(
      codeOf(() =>
        ledger.deposits.insertSubmitting({ profile: 's', request: { depixAddress: ADDRESS } }, 'ana'),
      ),
    ).toBe('invalid_input')
    const rec = created(ledger)
    expect(
      codeOf(() =>
        ledger.deposits.markRejected(rec.localId, {
          kind: 'business',
          status: 520,
          messageCode: null,
          denialCode: null,
          requestId: null,
        }),
      ),
    ).toBe('illegal_transition')
    expect(ledger.audit().total).toBe(2)
  })

  it('a second record cannot take a deposit id already linked in the same profile', () => {
    const { ledger } = tempLedger()
    created(ledger, 'qr-dup')
    const other = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body() }, 'ana')
    expect(
      codeOf(() =>
        ledger.deposits.markCreated(other.localId, {
          remoteId: 'qr-dup',
          createResponse: null,
          requestId: null,
        }),
      ),
    ).toBe('duplicate_remote_id')
  })

  it('outcome unknown after a crash, resolved by the operator (linked or not created), audited', () => {
    const { ledger } = tempLedger()
    const a = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body(1_000) }, 'ana')
    const b = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body(2_000) }, 'ana')
    expect(ledger.deposits.recoverInterrupted()).toBe(2)
    expect(ledger.deposits.get(a.localId)?.localState).toBe('outcome_unknown')
    const linked = ledger.deposits.resolveUnknown(a.localId, { depositId: 'qr-a' }, 'bruno')
    expect(linked).toMatchObject({ localState: 'created', remoteId: 'qr-a' })
    const none = ledger.deposits.resolveUnknown(b.localId, { notCreated: true }, 'bruno')
    expect(none.localState).toBe('not_created')
    const resolution = ledger.audit({ subject: a.localId }).rows[0]
    expect(resolution).toMatchObject({ action: 'deposit.resolved', operator: 'bruno' })
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('side-journal replay is idempotent', () => {
    const { ledger } = tempLedger()
    const sub = ledger.deposits.insertSubmitting({ profile: 'sandbox', request: body() }, 'ana')
    ledger.deposits.markOutcomeUnknown(sub.localId, null, 'store_failed')
    const outcome = { remoteId: 'qr-j', createResponse: { id: 'qr-j' }, requestId: 'r' }
    expect(ledger.deposits.applyJournaledCreate(sub.localId, outcome).applied).toBe(true)
    expect(ledger.deposits.applyJournaledCreate(sub.localId, outcome).applied).toBe(false)
    expect(ledger.deposits.get(sub.localId)).toMatchObject({ localState: 'created', remoteId: 'qr-j' })
  })
})

describe('deposit observations', () => {
  const at = (m: number) => new Date(Date.parse('2025-03-01T13:00:00.000Z') + m * 60_000).toISOString()

  it('applies newer statuses, keeps a stale one as history only, and records the txid and payer', () => {
    const { ledger } = tempLedger()
    const rec = created(ledger)
    ledger.deposits.recordObservation(rec.localId, {
      status: 'pending',
      body: { qrId: 'qr-1', status: 'pending', valueInCents: 50_000 },
      observedAt: at(0),
    })
    const sent = ledger.deposits.recordObservation(rec.localId, {
      status: 'depix_sent',
      body: {
        qrId: 'qr-1',
        status: 'depix_sent',
        valueInCents: 50_000,
        blockchainTxID: 'ab'.repeat(32),
        bankTxId: 'E123',
        payerName: 'Empresa',
      },
      observedAt: at(2),
    })
    expect(sent.record).toMatchObject({
      remoteStatus: 'depix_sent',
      blockchainTxId: 'ab'.repeat(32),
      bankTxId: 'E123',
      payerName: 'Empresa',
    })
    // An older answer arriving late changes nothing but the history.
    const stale = ledger.deposits.recordObservation(rec.localId, {
      status: 'approved',
      body: { qrId: 'qr-1', status: 'approved' },
      observedAt: at(1),
    })
    expect(stale.applied).toBe(false)
    expect(ledger.deposits.get(rec.localId)?.remoteStatus).toBe('depix_sent')
    expect(ledger.deposits.observations(rec.localId).map((o) => [o.remoteStatus, o.applied])).toEqual([
      ['pending', true],
      ['depix_sent', true],
      ['approved', false],
    ])
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('a MED (refunded after depix_sent) raises med_reversal with its date, once, and needs action', () => {
    const { ledger } = tempLedger()
    const rec = created(ledger)
    ledger.deposits.recordObservation(rec.localId, {
      status: 'depix_sent',
      body: { status: 'depix_sent', valueInCents: 50_000 },
      observedAt: at(0),
    })
    expect(ledger.deposits.query({ attention: true }).total).toBe(0)
    const med = ledger.deposits.recordObservation(rec.localId, {
      status: 'refunded',
      body: { status: 'refunded', valueInCents: 50_000 },
      observedAt: at(60),
    })
    expect(med.raised).toEqual(['med_reversal'])
    expect(med.record).toMatchObject({ remoteStatus: 'refunded', reversedAt: at(60) })
    expect(med.record.flags).not.toContain('remote_status_conflict')
    const again = ledger.deposits.recordObservation(rec.localId, {
      status: 'refunded',
      body: { status: 'refunded', valueInCents: 50_000, x: 1 },
      observedAt: at(61),
    })
    expect(again.record.reversedAt).toBe(at(60))
    expect(ledger.deposits.query({ attention: true }).rows.map((r) => r.localId)).toEqual([rec.localId])
    // Reversed is settled: the tracker stops asking.
    expect(ledger.deposits.listOpen()).toEqual([])
  })

  it('a value other than the one asked for is flagged', () => {
    const { ledger } = tempLedger()
    const rec = created(ledger)
    const r = ledger.deposits.recordObservation(rec.localId, {
      status: 'pending',
      body: { valueInCents: 49_999 },
      observedAt: at(0),
    })
    expect(r.record.flags).toContain('value_mismatch')
  })

  it('totals group by display status with the reported amount, and import marks a deposit made outside', () => {
    const { ledger } = tempLedger()
    const a = created(ledger, 'qr-a', 10_000)
    ledger.deposits.recordObservation(a.localId, {
      status: 'depix_sent',
      body: { valueInCents: 10_000 },
      observedAt: at(0),
    })
    const imported = ledger.deposits.importOutside(
      {
        profile: 'sandbox',
        remoteId: 'qr-out',
        status: 'approved',
        body: { qrId: 'qr-out', status: 'approved', valueInCents: 7_000 },
      },
      'ana',
    )
    expect(imported).toMatchObject({
      origin: 'imported',
      localState: 'created',
      amountCents: 7_000,
      remoteStatus: 'approved',
      request: {},
    })
    expect(
      codeOf(() =>
        ledger.deposits.importOutside(
          { profile: 'sandbox', remoteId: 'qr-out', status: 'x', body: {} },
          'ana',
        ),
      ),
    ).toBe('duplicate_remote_id')
    expect(ledger.deposits.knownRemoteIds('sandbox', ['qr-a', 'qr-out', 'qr-new'])).toEqual(
      new Set(['qr-a', 'qr-out']),
    )
    const totals = ledger.deposits.totalsByStatus({ profile: 'sandbox' })
    expect(totals).toEqual(
      expect.arrayContaining([
        {
          status: 'depix_sent',
          hasRefund: false,
          count: 1,
          depositCents: 10_000,
          payoutCents: 0,
          refundFeeCents: 0,
        },
        {
          status: 'approved',
          hasRefund: false,
          count: 1,
          depositCents: 7_000,
          payoutCents: 0,
          refundFeeCents: 0,
        },
      ]),
    )
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: true })
  })
})

describe('integrity covers deposits', () => {
  it('a deposit row edited with plain SQL breaks verification and is never written over', () => {
    const { ledger, file } = tempLedger()
    const rec = created(ledger)
    ledger.close()
    const db = new DatabaseSync(file)
    db.exec(`UPDATE deposits SET depix_address = 'ex1qattacker' WHERE local_id = '${rec.localId}'`)
    db.close()
    const reopened = track(openLedger(file))
    const v = reopened.verifyAuditChain()
    expect(v.ok).toBe(false)
    expect(v.ok ? '' : v.reason).toContain(rec.localId)
    expect(
      codeOf(() => reopened.deposits.recordObservation(rec.localId, { status: 'pending', body: {} })),
    ).toBe('record_tampered')
  })

  it('deleting a deposit row is refused by the guard', () => {
    const { ledger, file } = tempLedger()
    const rec = created(ledger)
    ledger.close()
    const db = new DatabaseSync(file)
    expect(() => db.exec(`DELETE FROM deposits WHERE local_id = '${rec.localId}'`)).toThrow(/never deleted/)
    db.close()
  })

  it('the incremental check before an export sees a deposit changed after a full verification', async () => {
    const { ledger } = tempLedger()
    const rec = created(ledger)
    const snap = ledger.snapshot()
    expect((await snap.verify()).ok).toBe(true)
    snap.close()
    ledger.deposits.recordObservation(rec.localId, { status: 'approved', body: { valueInCents: 50_000 } })
    const again = ledger.snapshot()
    expect(await again.verify()).toMatchObject({ ok: true })
    again.close()
  })
})
