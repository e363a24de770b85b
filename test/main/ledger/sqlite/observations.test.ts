import { describe, expect, it } from 'vitest'
import type { Ledger } from '../../../../src/main/ledger/sqlite/index'
import { newWithdrawal, steppingClock, T0, tempLedger } from './helpers'

const iso = (s: number): string => new Date(T0 + s * 1000).toISOString()

function created(ledger: Ledger, localId = 'w', status: string | null = 'unsent'): void {
  ledger.insertSubmitting(newWithdrawal({ localId }), 'ana')
  ledger.markCreated(localId, {
    remoteId: `wd-${localId}`,
    createResponse: { withdrawalId: `wd-${localId}` },
    requestId: 'req-create',
    depositAddress: 'lq1qqdeposit',
    status,
  })
}

const body = (status: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'wd-w',
  status,
  pixKey: 'maria.silva@example.com',
  depositAddress: 'lq1qqdeposit',
  ...extra,
})

describe('recordObservation', () => {
  it('applies a newer status and its derived fields, keeping the raw body with unknown fields', () => {
    const { ledger } = tempLedger()
    created(ledger)
    const b = body('sent', {
      payoutAmountInCents: 12_345,
      depositAmountInCents: 12_470,
      receiverName: 'Maria Silva',
      receiptUrl: 'https://example.com/r',
      brandNewField: [1, 2],
    })
    const res = ledger.recordObservation('w', {
      status: 'sent',
      body: b,
      requestId: 'req-2',
      nonce: 'n-2',
      observedAt: iso(100),
    })
    expect(res).toMatchObject({ changed: true, applied: true })
    expect(res.record).toMatchObject({
      remoteStatus: 'sent',
      remoteStatusAt: iso(100),
      lastRemote: b,
      payoutAmountCents: 12_345,
      depositAmountCents: 12_470,
      receiverName: 'Maria Silva',
      flags: [],
    })
    expect(ledger.get('w')).toEqual(res.record)
    expect(ledger.listOpen()).toEqual([])
    expect(ledger.observations('w').at(-1)).toMatchObject({
      remoteStatus: 'sent',
      body: b,
      requestId: 'req-2',
      nonce: 'n-2',
      applied: true,
    })
  })

  it('stores nothing when the answer equals the last one, but remembers the check', () => {
    const clock = steppingClock()
    const { ledger } = tempLedger({ now: clock.now })
    created(ledger)
    ledger.recordObservation('w', { status: 'sending', body: body('sending', { a: 1, b: 2 }) })
    const before = ledger.get('w')
    // Same content, keys in another order: still the same answer.
    const res = ledger.recordObservation('w', { status: 'sending', body: { b: 2, a: 1, ...body('sending') } })
    expect(res.changed).toBe(false)
    expect(ledger.observations('w')).toHaveLength(2)
    expect(res.record.updatedAt).toBe(before?.updatedAt)
    expect(res.record.remoteCheckedAt! > before!.remoteCheckedAt!).toBe(true)
    expect(ledger.get('w')).toEqual(res.record)
  })

  it('keeps out-of-order answers as history without letting them overwrite a newer status', () => {
    const { ledger } = tempLedger()
    created(ledger, 'w', null)
    ledger.recordObservation('w', {
      status: 'sent',
      body: body('sent', { receiverName: 'Maria Silva' }),
      observedAt: iso(30),
    })
    const stale = ledger.recordObservation('w', {
      status: 'sending',
      body: body('sending', { receiverName: 'Outra Pessoa' }),
      observedAt: iso(40),
    })
    expect(stale).toMatchObject({ changed: true, applied: false })
    expect(stale.record).toMatchObject({
      remoteStatus: 'sent',
      remoteStatusAt: iso(30),
      receiverName: 'Maria Silva',
    })
    const unsent = ledger.recordObservation('w', {
      status: 'unsent',
      body: body('unsent'),
      observedAt: iso(50),
    })
    expect(unsent.applied).toBe(false)
    expect(ledger.observations('w').map((o) => [o.remoteStatus, o.applied])).toEqual([
      ['sent', true],
      ['sending', false],
      ['unsent', false],
    ])
    expect(ledger.get('w')?.remoteStatus).toBe('sent')
    expect(ledger.listOpen()).toEqual([])
  })

  it('an older observation of the same rank does not replace a newer one', () => {
    const { ledger } = tempLedger()
    created(ledger, 'w', null)
    ledger.recordObservation('w', {
      status: 'sending',
      body: body('sending', { expiration: '2025-03-01T13:00:00.000Z' }),
      observedAt: iso(50),
    })
    const older = ledger.recordObservation('w', {
      status: 'sending',
      body: body('sending', { expiration: '2025-03-01T12:30:00.000Z' }),
      observedAt: iso(10),
    })
    expect(older.applied).toBe(false)
    expect(older.record.expiration).toBe('2025-03-01T13:00:00.000Z')
  })

  it('a refund is kept from any answer, stale or not, and makes error terminal', () => {
    const { ledger } = tempLedger()
    created(ledger, 'w', null)
    ledger.recordObservation('w', { status: 'error', body: body('error'), observedAt: iso(50) })
    expect(ledger.listOpen()).toHaveLength(1)
    const refund = { txId: 'tx-back', reason: 'invalid_pix_key', feeInCents: 100 }
    const res = ledger.recordObservation('w', {
      status: 'error',
      body: body('error', { refund }),
      observedAt: iso(10),
    })
    expect(res.applied).toBe(false)
    expect(res.record.refund).toEqual(refund)
    expect(ledger.listOpen()).toEqual([])
    // A later answer without the refund object does not erase it.
    ledger.recordObservation('w', { status: 'error', body: body('error'), observedAt: iso(60) })
    expect(ledger.get('w')?.refund).toEqual(refund)
    expect(ledger.totalsByStatus()).toEqual([
      {
        status: 'error',
        hasRefund: true,
        count: 1,
        depositCents: 0,
        payoutCents: 12_345,
        refundFeeCents: 100,
      },
    ])
  })

  it('an unknown status replaces unsent, never a terminal one, and is stored raw', () => {
    const { ledger } = tempLedger()
    created(ledger)
    const res = ledger.recordObservation('w', {
      status: 'Em-Análise',
      body: body('Em-Análise'),
      observedAt: iso(20),
    })
    expect(res.record.remoteStatus).toBe('Em-Análise')
    expect(ledger.query({ statuses: ['em_análise'] }).total).toBe(1)
    expect(ledger.listOpen()).toHaveLength(1)
    ledger.recordObservation('w', { status: 'expired', body: body('expired'), observedAt: iso(30) })
    expect(
      ledger.recordObservation('w', { status: 'Em-Análise', body: body('Em-Análise', { x: 1 }) }).applied,
    ).toBe(false)
    expect(ledger.get('w')?.remoteStatus).toBe('expired')
  })

  it('flags a changed deposit address (the address stays the one funded), a different Pix key and conflicting terminal statuses, audited', () => {
    const { ledger } = tempLedger()
    created(ledger)
    ledger.recordObservation('w', {
      status: 'unsent',
      body: body('unsent', { depositAddress: 'lq1qqOTHER' }),
    })
    // Frozen once set, as the team database enforces (migration 11): the flag, not a new address to send to.
    expect(ledger.get('w')).toMatchObject({
      depositAddress: 'lq1qqdeposit',
      flags: ['deposit_address_changed'],
    })
    ledger.recordObservation('w', {
      status: 'sent',
      body: body('sent', { depositAddress: 'lq1qqOTHER', pixKey: 'someone@else.com' }),
    })
    ledger.recordObservation('w', {
      status: 'expired',
      body: body('expired', { depositAddress: 'lq1qqOTHER' }),
    })
    const rec = ledger.get('w')
    expect(rec?.flags).toEqual(['deposit_address_changed', 'pix_key_mismatch', 'remote_status_conflict'])
    expect(rec?.remoteStatus).toBe('sent')
    const flagged = ledger.audit({ subject: 'w' }).rows.filter((a) => a.action === 'withdrawal.flagged')
    expect(flagged.map((a) => a.details.flags)).toEqual([
      ['remote_status_conflict'],
      ['pix_key_mismatch'],
      ['deposit_address_changed'],
    ])
    expect(flagged.every((a) => a.operator === 'system')).toBe(true)
  })

  it('does not flag a Pix key that differs only in case', () => {
    const { ledger } = tempLedger()
    created(ledger)
    ledger.recordObservation('w', {
      status: 'sent',
      body: body('sent', { pixKey: 'MARIA.SILVA@EXAMPLE.COM' }),
    })
    expect(ledger.get('w')?.flags).toEqual([])
  })

  it('ignores derived fields of the wrong type but keeps them raw', () => {
    const { ledger } = tempLedger()
    created(ledger)
    const b = body('sending', { payoutAmountInCents: '12000', receiverName: 42 })
    const rec = ledger.recordObservation('w', { status: 'sending', body: b }).record
    expect(rec).toMatchObject({ payoutAmountCents: 12_345, receiverName: null, lastRemote: b })
  })

  it('refuses malformed input', () => {
    const { ledger } = tempLedger()
    created(ledger)
    expect(() =>
      ledger.recordObservation('w', { status: 'sent', body: null, observedAt: 'yesterday' }),
    ).toThrow(/observation/)
  })
})
