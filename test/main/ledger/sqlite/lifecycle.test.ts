import { describe, expect, it } from 'vitest'
import { LedgerError } from '../../../../src/main/ledger/sqlite/index'
import { businessError, newWithdrawal, T0, tempLedger } from './helpers'

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn()
  } catch (e) {
    return e instanceof LedgerError ? e.code : `not a LedgerError: ${String(e)}`
  }
  return undefined
}

describe('insertSubmitting', () => {
  it('stores the exact request and audits it in the same transaction', () => {
    const { ledger } = tempLedger()
    const input = newWithdrawal({ localId: 'a-1' })
    const rec = ledger.insertSubmitting(input, 'ana')
    expect(rec).toMatchObject({
      localId: 'a-1',
      profile: 'sandbox',
      operator: 'ana',
      localState: 'submitting',
      createdAt: new Date(T0).toISOString(),
      pixKey: 'maria.silva@example.com',
      amountKind: 'payout',
      amountCents: 12_345,
      payoutAmountCents: 12_345,
      depositAmountCents: null,
      remoteId: null,
      flags: [],
    })
    expect(ledger.get('a-1')).toEqual(rec)
    expect(JSON.stringify(ledger.get('a-1')?.request)).toBe(JSON.stringify(input.request))
    const audit = ledger.audit().rows
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      seq: 1,
      action: 'withdrawal.submitting',
      subject: 'a-1',
      operator: 'ana',
    })
  })

  it('generates a uuid when no localId is given', () => {
    const { ledger } = tempLedger()
    expect(ledger.insertSubmitting(newWithdrawal(), 'ana').localId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses input whose columns disagree with the request body', () => {
    const { ledger } = tempLedger()
    const base = newWithdrawal()
    expect(codeOf(() => ledger.insertSubmitting({ ...base, pixKey: 'other@example.com' }, 'ana'))).toBe(
      'invalid_input',
    )
    expect(codeOf(() => ledger.insertSubmitting({ ...base, amountCents: 999 }, 'ana'))).toBe('invalid_input')
    expect(
      codeOf(() =>
        ledger.insertSubmitting(
          { ...base, request: { ...base.request, depositAmountInCents: 12_345 } },
          'ana',
        ),
      ),
    ).toBe('invalid_input')
    expect(codeOf(() => ledger.insertSubmitting({ ...base, amountCents: 1.5 }, 'ana'))).toBe('invalid_input')
    expect(codeOf(() => ledger.insertSubmitting(base, ''))).toBe('invalid_input')
    expect(ledger.query().total).toBe(0)
    expect(ledger.audit().total).toBe(0)
  })

  it('refuses a duplicate localId without touching the first record', () => {
    const { ledger } = tempLedger()
    const first = ledger.insertSubmitting(newWithdrawal({ localId: 'dup' }), 'ana')
    expect(
      codeOf(() => ledger.insertSubmitting(newWithdrawal({ localId: 'dup', amountCents: 500 }), 'bob')),
    ).toBe('invalid_input')
    expect(ledger.get('dup')).toEqual(first)
    expect(ledger.audit().total).toBe(1)
  })
})

describe('create outcomes', () => {
  it('submitting → created keeps the response raw and records the first status', () => {
    const { ledger } = tempLedger()
    const rec = ledger.insertSubmitting(newWithdrawal(), 'ana')
    const created = ledger.markCreated(rec.localId, {
      remoteId: 'wd-1',
      createResponse: { withdrawalId: 'wd-1', somethingNew: { nested: true } },
      requestId: 'req-1',
      nonce: 'nonce-1',
      depositAddress: 'lq1qqdeposit',
      depositAmountCents: 12_470,
      payoutAmountCents: 12_345,
      expiration: '2025-03-01T13:00:00.000Z',
      status: 'unsent',
    })
    expect(created).toMatchObject({
      localState: 'created',
      remoteId: 'wd-1',
      requestId: 'req-1',
      createResponse: { withdrawalId: 'wd-1', somethingNew: { nested: true } },
      remoteStatus: 'unsent',
      depositAddress: 'lq1qqdeposit',
      depositAmountCents: 12_470,
    })
    expect(ledger.get(rec.localId)).toEqual(created)
    expect(ledger.findByRemoteId('wd-1')?.localId).toBe(rec.localId)
    expect(ledger.observations(rec.localId)).toMatchObject([
      { remoteStatus: 'unsent', requestId: 'req-1', nonce: 'nonce-1' },
    ])
    expect(ledger.listOpen().map((r) => r.localId)).toEqual([rec.localId])
    expect(ledger.audit().rows.map((a) => a.action)).toEqual(['withdrawal.created', 'withdrawal.submitting'])
  })

  it('without a status in the response the record is created, open, with no remote status yet', () => {
    const { ledger } = tempLedger()
    const rec = ledger.insertSubmitting(newWithdrawal(), 'ana')
    const created = ledger.markCreated(rec.localId, {
      remoteId: 'wd-1',
      createResponse: null,
      requestId: null,
    })
    expect(created.remoteStatus).toBeNull()
    expect(ledger.observations(rec.localId)).toEqual([])
    expect(ledger.listOpen()).toHaveLength(1)
  })

  it('submitting → rejected keeps codes and request id', () => {
    const { ledger } = tempLedger()
    const rec = ledger.insertSubmitting(newWithdrawal(), 'ana')
    const rejected = ledger.markRejected(rec.localId, businessError)
    expect(rejected).toMatchObject({ localState: 'rejected', error: businessError, requestId: 'req-520' })
    expect(ledger.listOpen()).toEqual([])
    const [last] = ledger.audit().rows
    expect(last).toMatchObject({ action: 'withdrawal.rejected', details: { error: businessError } })
  })

  it('submitting → outcome_unknown with or without error info', () => {
    const { ledger } = tempLedger()
    const a = ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    const b = ledger.insertSubmitting(newWithdrawal({ localId: 'b' }), 'ana')
    const err = { kind: 'outcome_unknown', status: 503, messageCode: null, denialCode: null, requestId: 'r' }
    expect(ledger.markOutcomeUnknown(a.localId, err, 'http 503 without Retry-After')).toMatchObject({
      localState: 'outcome_unknown',
      error: err,
    })
    expect(ledger.markOutcomeUnknown(b.localId, null, 'timeout')).toMatchObject({
      localState: 'outcome_unknown',
      error: null,
    })
    expect(ledger.audit().rows[0]).toMatchObject({ details: { reason: 'timeout', error: null } })
  })

  it('refuses every illegal transition and writes nothing', () => {
    const { ledger } = tempLedger()
    const outcome = { remoteId: 'wd-x', createResponse: null, requestId: null }
    const created = ledger.insertSubmitting(newWithdrawal({ localId: 'c' }), 'ana')
    ledger.markCreated('c', { ...outcome, remoteId: 'wd-c' })
    ledger.insertSubmitting(newWithdrawal({ localId: 'r' }), 'ana')
    ledger.markRejected('r', businessError)
    ledger.insertSubmitting(newWithdrawal({ localId: 'u' }), 'ana')
    ledger.markOutcomeUnknown('u', null, 'timeout')
    ledger.insertSubmitting(newWithdrawal({ localId: 'n' }), 'ana')
    ledger.markOutcomeUnknown('n', null, 'timeout')
    ledger.resolveUnknown('n', { notCreated: true }, 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 's' }), 'ana')
    const before = { audit: ledger.audit().total, rows: ledger.query({ limit: 100 }).rows }

    for (const id of ['c', 'r', 'u', 'n']) {
      expect(codeOf(() => ledger.markCreated(id, outcome))).toBe('illegal_transition')
      expect(codeOf(() => ledger.markRejected(id, businessError))).toBe('illegal_transition')
      expect(codeOf(() => ledger.markOutcomeUnknown(id, null, 'x'))).toBe('illegal_transition')
    }
    for (const id of ['c', 'r', 's', 'n']) {
      expect(codeOf(() => ledger.resolveUnknown(id, { notCreated: true }, 'ana'))).toBe('illegal_transition')
      expect(codeOf(() => ledger.resolveUnknown(id, { withdrawalId: 'wd-z' }, 'ana'))).toBe(
        'illegal_transition',
      )
    }
    for (const id of ['r', 'u', 'n', 's']) {
      expect(codeOf(() => ledger.recordObservation(id, { status: 'sent', body: null }))).toBe(
        'illegal_transition',
      )
      expect(codeOf(() => ledger.markFunded(id, {}, 'ana'))).toBe('illegal_transition')
    }
    expect(codeOf(() => ledger.markCreated('missing', outcome))).toBe('not_found')
    expect(ledger.audit().total).toBe(before.audit)
    expect(ledger.query({ limit: 100 }).rows).toEqual(before.rows)
    expect(created.localState).toBe('submitting')
  })

  it('refuses to link one remote id to two records', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    ledger.markCreated('a', { remoteId: 'wd-1', createResponse: null, requestId: null })
    ledger.insertSubmitting(newWithdrawal({ localId: 'b' }), 'ana')
    expect(
      codeOf(() => ledger.markCreated('b', { remoteId: 'wd-1', createResponse: null, requestId: null })),
    ).toBe('duplicate_remote_id')
    ledger.markOutcomeUnknown('b', null, 'timeout')
    expect(codeOf(() => ledger.resolveUnknown('b', { withdrawalId: 'wd-1' }, 'ana'))).toBe(
      'duplicate_remote_id',
    )
    expect(ledger.get('b')?.localState).toBe('outcome_unknown')
  })
})

describe('recoverInterrupted', () => {
  it('turns every submitting record into outcome_unknown, audited, and never touches the others', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 's1' }), 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 's2' }), 'bob')
    ledger.insertSubmitting(newWithdrawal({ localId: 'c' }), 'ana')
    ledger.markCreated('c', { remoteId: 'wd-c', createResponse: null, requestId: null })
    expect(ledger.recoverInterrupted()).toBe(2)
    expect(ledger.get('s1')?.localState).toBe('outcome_unknown')
    expect(ledger.get('s2')?.localState).toBe('outcome_unknown')
    expect(ledger.get('c')?.localState).toBe('created')
    const rows = ledger.audit({ limit: 2 }).rows
    expect(rows.map((r) => [r.subject, r.operator, r.details.reason])).toEqual([
      ['s2', 'system', 'interrupted'],
      ['s1', 'system', 'interrupted'],
    ])
    expect(ledger.recoverInterrupted()).toBe(0)
  })
})

describe('resolveUnknown', () => {
  it('links a withdrawal id from support: created, open for tracking, audited with the operator', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'u' }), 'ana')
    ledger.markOutcomeUnknown('u', null, 'timeout')
    const rec = ledger.resolveUnknown('u', { withdrawalId: 'wd-9', note: 'ticket 123' }, 'carla')
    expect(rec).toMatchObject({ localState: 'created', remoteId: 'wd-9' })
    expect(ledger.listOpen().map((r) => r.localId)).toEqual(['u'])
    expect(ledger.audit().rows[0]).toMatchObject({
      action: 'withdrawal.resolved',
      operator: 'carla',
      details: { resolution: 'linked', remoteId: 'wd-9', note: 'ticket 123' },
    })
  })
  it('declares it never created', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'u' }), 'ana')
    ledger.markOutcomeUnknown('u', null, 'timeout')
    expect(ledger.resolveUnknown('u', { notCreated: true }, 'carla').localState).toBe('not_created')
    expect(ledger.audit().rows[0]?.details).toMatchObject({ resolution: 'not_created' })
  })
  it('validates the resolution', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'u' }), 'ana')
    ledger.markOutcomeUnknown('u', null, 'timeout')
    expect(codeOf(() => ledger.resolveUnknown('u', { withdrawalId: '' }, 'carla'))).toBe('invalid_input')
    expect(codeOf(() => ledger.resolveUnknown('u', { notCreated: true }, ''))).toBe('invalid_input')
  })
})

describe('markFunded and setFlags', () => {
  it('records the funding declaration; repeats only add a new tx id', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    ledger.markCreated('a', { remoteId: 'wd', createResponse: null, requestId: null, status: 'unsent' })
    const first = ledger.markFunded('a', {}, 'ana')
    expect(first.fundedAt).not.toBeNull()
    expect(ledger.markFunded('a', {}, 'ana')).toEqual(first)
    const second = ledger.markFunded('a', { txId: 'tx-2' }, 'bob')
    expect(second).toMatchObject({ fundedAt: first.fundedAt, fundingTxId: 'tx-2' })
    expect(ledger.markFunded('a', { txId: 'tx-2' }, 'bob')).toEqual(second)
    expect(ledger.audit({ subject: 'a' }).rows.filter((r) => r.action === 'withdrawal.funded')).toHaveLength(
      2,
    )
  })
  it('replaces flags, audits the difference, and ignores a no-op', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a', flags: ['x'] }), 'ana')
    const rec = ledger.setFlags('a', ['x', 'deposit_address_invalid', 'x'], 'system')
    expect(rec.flags).toEqual(['x', 'deposit_address_invalid'])
    expect(ledger.audit().rows[0]?.details).toEqual({ added: ['deposit_address_invalid'], removed: [] })
    const total = ledger.audit().total
    expect(ledger.setFlags('a', ['deposit_address_invalid', 'x'], 'system').flags).toEqual(rec.flags)
    expect(ledger.audit().total).toBe(total)
    expect(ledger.setFlags('a', [], 'ana').flags).toEqual([])
    expect(ledger.audit().rows[0]?.details).toEqual({ added: [], removed: ['x', 'deposit_address_invalid'] })
  })
})

describe('findRecentSimilar (duplicate guard)', () => {
  it('finds same key (any case) and amount since a time, skipping records that moved no money', () => {
    const { ledger } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'old' }), 'ana')
    const since = new Date(T0 + 500).toISOString() // after "old" (T0), before "same" (T0 + 1 s)
    ledger.insertSubmitting(newWithdrawal({ localId: 'same' }), 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'rej' }), 'ana')
    ledger.markRejected('rej', businessError)
    ledger.insertSubmitting(newWithdrawal({ localId: 'unk' }), 'ana')
    ledger.markOutcomeUnknown('unk', null, 'timeout')
    ledger.insertSubmitting(newWithdrawal({ localId: 'nc' }), 'ana')
    ledger.markOutcomeUnknown('nc', null, 'timeout')
    ledger.resolveUnknown('nc', { notCreated: true }, 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'other-amount', amountCents: 999 }), 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'other-kind', amountKind: 'deposit' }), 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'prod', profile: 'production' }), 'ana')
    const found = ledger.findRecentSimilar({
      pixKey: ' MARIA.SILVA@example.com ',
      amountKind: 'payout',
      amountCents: 12_345,
      sinceIso: since,
      profile: 'sandbox',
    })
    expect(found.map((r) => r.localId)).toEqual(['unk', 'same'])
  })
})
