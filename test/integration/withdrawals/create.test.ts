/**
 * create(), funding() and resolveUnknown() against the real sandbox. Every test counts the POSTs the sandbox saw:
 * whatever the answer, one intent is at most one POST.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { checkLiquidAddress, generateLiquidAddress } from '../../../src/main/liquid'
import { WithdrawalError } from '../../../src/main/withdrawals'
import { draft, REFUND_ADDRESS, rig, sandboxWithdrawal, TAX_NUMBER, type Rig } from './helpers'
import { reviewedCreate } from '../../main/withdrawals/reviewed'

let r: Rig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

describe('created', () => {
  it('full create response: created with the deposit facts, payable, exact body sent', async () => {
    r = await rig()
    const quote = await r.service.quote(draft())
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.localState).toBe('created')
    expect(rec.remoteStatus).toBe('unsent')
    expect(rec.requestId).toMatch(/\S/)
    expect(checkLiquidAddress(rec.depositAddress as string, 'liquid')).toMatchObject({
      ok: true,
      confidential: true,
    })
    expect(rec.depositAmountCents).toBe(quote.depositCents)
    expect(rec.payoutAmountCents).toBe(1_000)
    expect(rec.request).toEqual(quote.request)
    const remote = sandboxWithdrawal(r.sb, rec.remoteId)
    expect(remote).toMatchObject({
      pixKey: 'fulano@example.com',
      refundAddress: REFUND_ADDRESS,
      depositAmountInCents: 1_100,
    })
    const { funding, problem } = await r.service.funding(rec.localId)
    expect(problem).toBeNull()
    expect(funding).toMatchObject({
      address: remote?.depositAddress,
      cents: 1_100,
      depixAmount: '11.00000000',
    })
    expect(r.posts()).toBe(1)
    // Confirmed by the create's own answer (the service's words, held by this process): no status read.
    expect(r.statusGets()).toBe(0)
  })

  it('minimal create response: the deposit address comes from one status read', async () => {
    r = await rig()
    r.sb.control.setOptions({ minimalCreateResponse: true })
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.createResponse).toEqual({ withdrawalId: rec.remoteId })
    expect(rec).toMatchObject({ localState: 'created', remoteStatus: 'unsent' })
    expect(rec.depositAddress).toBe(sandboxWithdrawal(r.sb, rec.remoteId)?.depositAddress)
    expect(r.statusGets()).toBe(1)
    expect((await r.service.funding(rec.localId)).problem).toBeNull()
    expect(r.posts()).toBe(1)
    // The create's own status read is the funding's confirmation too: no second read.
    expect(r.statusGets()).toBe(1)
  })

  it('minimal create response and a failed status read: created without address, filled by the next poll', async () => {
    r = await rig()
    r.sb.control.setOptions({ minimalCreateResponse: true })
    r.sb.control.injectFault({
      kind: 'refusal',
      status: 520,
      messageCode: 'INTERNAL_ERROR',
      endpoint: 'withdraw-status',
    })
    const rec = await reviewedCreate(r.service, draft())
    expect(rec).toMatchObject({ localState: 'created', depositAddress: null })
    expect((await r.service.funding(rec.localId)).problem).toBe('no_deposit_address')
    const later = await r.service.refresh(rec.localId)
    expect(later.depositAddress).toBe(sandboxWithdrawal(r.sb, rec.remoteId)?.depositAddress)
    expect(r.posts()).toBe(1)
  })
})

describe('rejected', () => {
  it('520 business: codes and request id kept, nothing open', async () => {
    r = await rig()
    const rec = await reviewedCreate(r.service, draft({ taxNumber: '', euid: 'EU-NOBODY' }))
    expect(rec.localState).toBe('rejected')
    expect(rec.error).toMatchObject({ kind: 'business', status: 520, messageCode: 'END_USER_NOT_FOUND' })
    expect(rec.error?.requestId).toMatch(/\S/)
    expect(rec.requestId).toBe(rec.error?.requestId)
    expect(r.ledger.listOpen()).toEqual([])
    expect(r.posts()).toBe(1)
  })

  it('422 compliance: denial code and support reference kept', async () => {
    r = await rig()
    r.sb.control.complianceBlock(TAX_NUMBER)
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.localState).toBe('rejected')
    expect(rec.error).toMatchObject({ kind: 'compliance', status: 422, denialCode: 'COMPLIANCE_BLOCKED' })
    expect(rec.error?.supportReference).toMatch(/\S/)
    expect(r.posts()).toBe(1)
  })

  it('maintenance: rejected with its Retry-After, nothing created in the sandbox', async () => {
    r = await rig()
    r.sb.control.setMaintenance(true)
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.localState).toBe('rejected')
    expect(rec.error).toMatchObject({ kind: 'maintenance', status: 503, retryAfterSeconds: 300 })
    expect(r.sb.control.state().withdrawals).toEqual([])
    expect(r.posts()).toBe(1)
    // The guard ignores rejected attempts: after maintenance the same intent goes through.
    r.sb.control.setMaintenance(false)
    expect((await reviewedCreate(r.service, draft())).localState).toBe('created')
    expect(r.posts()).toBe(2)
  })
})

describe('outcome_unknown, and the operator resolving it', () => {
  it('timeout after create (503 without Retry-After): the withdrawal exists; linking its id makes it created', async () => {
    r = await rig()
    r.sb.control.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw' })
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.localState).toBe('outcome_unknown')
    expect(rec.error).toMatchObject({ kind: 'outcome_unknown', status: 503 })
    const [remote] = r.sb.control.state().withdrawals
    expect(remote).toBeDefined()
    // Support tells the operator the id; a wrong id is refused with the API's own answer.
    await expect(r.service.resolveUnknown(rec.localId, { withdrawalId: 'no-such-id' })).rejects.toMatchObject(
      {
        code: 'remote_not_found',
      },
    )
    const linked = await r.service.resolveUnknown(rec.localId, { withdrawalId: remote?.id as string })
    expect(linked).toMatchObject({ localState: 'created', remoteId: remote?.id, remoteStatus: 'unsent' })
    expect(linked.depositAddress).toBe(remote?.depositAddress)
    const actions = r.ledger.audit({ subject: rec.localId }).rows.map((a) => a.action)
    expect(actions).toContain('withdrawal.resolved')
    expect(r.ledger.verifyAuditChain()).toMatchObject({ ok: true })
    expect(r.posts()).toBe(1)
  })

  it('connection reset: nothing was created; declared not created, audited', async () => {
    r = await rig()
    r.sb.control.injectFault({ kind: 'reset', endpoint: 'withdraw' })
    const rec = await reviewedCreate(r.service, draft())
    expect(rec.localState).toBe('outcome_unknown')
    expect(r.sb.control.state().withdrawals).toEqual([])
    // Still a duplicate candidate: nobody knows yet whether it exists.
    await expect(reviewedCreate(r.service, draft())).rejects.toMatchObject({ code: 'duplicate' })
    const done = await r.service.resolveUnknown(rec.localId, { notCreated: true })
    expect(done.localState).toBe('not_created')
    const audit = r.ledger.audit({ subject: rec.localId }).rows[0]
    expect(audit).toMatchObject({
      action: 'withdrawal.resolved',
      operator: 'ana',
      details: { resolution: 'not_created' },
    })
    expect(r.posts()).toBe(1)
  })
})

describe('one review, one POST (create intents)', () => {
  it('two concurrent creates with one intent (a re-sent IPC message): exactly one POST reaches the sandbox', async () => {
    r = await rig()
    await reviewedCreate(r.service, draft())
    // The second review shows the first as similar and the operator confirms it: the intent now covers one create.
    const q = await r.service.quote(draft())
    expect(q.duplicates).toHaveLength(1)
    const authority = { intentId: q.intent.id, confirmedDuplicates: q.duplicates.map((d) => d.localId) }
    const results = await Promise.allSettled([
      r.service.create(draft(), authority),
      r.service.create(draft(), authority),
      r.service.create(draft(), authority),
    ])
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1)
    for (const x of results.filter((y) => y.status === 'rejected')) {
      expect((x as PromiseRejectedResult).reason).toMatchObject({ code: 'intent_invalid' })
    }
    expect(r.posts()).toBe(2)
    expect(r.ledger.query().rows.map((x) => x.localState)).toEqual(['created', 'created'])
  })
})

describe('refused before anything is sent', () => {
  it('duplicate guard: same Pix key and amount within 24 h', async () => {
    r = await rig()
    const first = await reviewedCreate(r.service, draft())
    const e = await reviewedCreate(r.service, draft({ pixKey: 'FULANO@example.com' })).catch(
      (x: unknown) => x,
    )
    expect(e).toBeInstanceOf(WithdrawalError)
    expect(e).toMatchObject({
      code: 'duplicate',
      duplicates: [expect.objectContaining({ localId: first.localId })],
    })
    expect(r.posts()).toBe(1)
    const second = await reviewedCreate(r.service, draft(), { confirm: true })
    expect(second.localState).toBe('created')
    expect(r.posts()).toBe(2)
  })

  it('refund address on the wrong network', async () => {
    r = await rig()
    const testnet = generateLiquidAddress('testnet').address
    const q = await r.service.quote(draft({ refundAddress: testnet }))
    expect(q.refundAddress).toMatchObject({ ok: false, reason: 'wrong_network', actualNetwork: 'testnet' })
    await expect(reviewedCreate(r.service, draft({ refundAddress: testnet }))).rejects.toMatchObject({
      code: 'refund_address_invalid',
      reason: 'wrong_network',
    })
    expect(r.ledger.query().total).toBe(0)
    expect(r.posts()).toBe(0)
  })
})
