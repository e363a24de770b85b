/**
 * "Comprar DePix" against the real sandbox: create (journaled, POSTed once), the QR, refusals, and every unclear
 * answer after the POST (503 without Retry-After, 500, a reset connection, a client timeout) ending as
 * outcome_unknown that only the operator resolves. Every test counts the POSTs the sandbox saw: one intent is at
 * most one POST, and nothing is ever resent.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { DepositError } from '../../../src/main/deposits'
import { generateLiquidAddress } from '../../../src/main/liquid'
import {
  depositDraft,
  depositRig,
  PAYER_CPF,
  reviewedDeposit,
  TREASURY_ADDRESS,
  type DepositRig,
} from './helpers'

let r: DepositRig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

const remote = (rig: DepositRig, id: string | null) =>
  rig.sb.control.state().deposits.find((d) => d.qrId === id)

describe('created', () => {
  it('sends exactly the reviewed body once and keeps the QR the answer carries', async () => {
    r = await depositRig()
    const q = await r.service.quote(depositDraft())
    expect(q.request).toEqual({
      amountInCents: 50_000,
      depixAddress: TREASURY_ADDRESS,
      endUserTaxNumber: PAYER_CPF,
    })
    expect(q.address).toMatchObject({ ok: true, network: 'liquid' })
    const rec = await r.service.create(depositDraft(), { intentId: q.intent.id })
    expect(rec).toMatchObject({ localState: 'created', origin: 'app', amountCents: 50_000 })
    expect(rec.remoteId).toBe(r.sb.control.state().deposits[0]?.qrId)
    expect(rec.request).toEqual(q.request)
    expect(rec.qrCopyPaste).toMatch(/^000201/)
    expect(rec.createResponse).toMatchObject({ id: rec.remoteId, qrCopyPaste: rec.qrCopyPaste })
    expect(rec.expiration).toBe(remote(r, rec.remoteId)?.expiration)
    const detail = await r.service.detail(rec.localId)
    expect(detail.qr).toMatchObject({ crcValid: true, amountCents: 50_000, amountMatches: true })
    expect(detail.qr?.svg).toContain('<svg')
    expect(r.posts()).toBe(1)
  })

  it('a pasted liquidnetwork: URI is sent as the plain address the Liquid helper checked', async () => {
    r = await depositRig()
    const q = await r.service.quote(
      depositDraft({ depixAddress: `liquidnetwork:${TREASURY_ADDRESS}?amount=1` }),
    )
    expect(q.request.depixAddress).toBe(TREASURY_ADDRESS)
    expect(r.posts()).toBe(0)
  })
})

describe('refused before anything is sent', () => {
  it('Arkade and Spark destinations are refused with their own reason; a testnet address on a mainnet profile too', async () => {
    r = await depositRig()
    for (const [address, code] of [
      [
        'ark1qq4hfssprtcgnjzf8qlw2f78yvjau5kldfugg29k34y7j96q2w4t567uy9ukgfl2tdxr6yycmmyeu9glccpt52ghvqlqp3f9rjp5ejqkyzk3r',
        'address_arkade',
      ],
      ['spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu', 'address_spark'],
    ] as const) {
      await expect(r.service.quote(depositDraft({ depixAddress: address }))).rejects.toMatchObject({
        code: 'invalid_draft',
        fields: { depixAddress: code },
      })
    }
    const testnet = generateLiquidAddress('testnet', { confidential: false }).address
    const q = await r.service.quote(depositDraft({ depixAddress: testnet }))
    expect(q.address).toMatchObject({ ok: false, reason: 'wrong_network' })
    await expect(
      r.service.create(depositDraft({ depixAddress: testnet }), { intentId: q.intent.id }),
    ).rejects.toMatchObject({
      code: 'address_invalid',
    })
    expect(r.posts()).toBe(0)
    expect(r.ledger.deposits.query().total).toBe(0)
  })

  it('one intent, two concurrent creates: exactly one POST; the second is refused as used', async () => {
    r = await depositRig()
    const q = await r.service.quote(depositDraft())
    const [a, b] = await Promise.allSettled([
      r.service.create(depositDraft(), { intentId: q.intent.id }),
      r.service.create(depositDraft(), { intentId: q.intent.id }),
    ])
    expect(a.status).toBe('fulfilled')
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'intent_invalid' } })
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(DepositError)
    expect(r.posts()).toBe(1)
    expect(r.ledger.deposits.query().total).toBe(1)
  })

  it('a similar deposit of the last 24 h must be confirmed, and one that appeared since the review voids it', async () => {
    r = await depositRig()
    await reviewedDeposit(r.service, depositDraft())
    const q = await r.service.quote(depositDraft())
    expect(q.duplicates).toHaveLength(1)
    await expect(r.service.create(depositDraft(), { intentId: q.intent.id })).rejects.toMatchObject({
      code: 'duplicate',
    })
    const rec = await r.service.create(depositDraft(), {
      intentId: q.intent.id,
      confirmedDuplicates: q.duplicates.map((d) => d.localId),
    })
    expect(rec.flags).toContain('duplicate_confirmed')
    expect(r.posts()).toBe(2)
  })
})

describe('rejected: the service refused, nothing was created', () => {
  it('520 IDENTIFICATION_REQUIRED without a payer; 422 compliance; maintenance 503 with Retry-After', async () => {
    r = await depositRig()
    const anon = await reviewedDeposit(r.service, depositDraft({ endUserTaxNumber: undefined }))
    expect(anon).toMatchObject({
      localState: 'rejected',
      error: { kind: 'business', messageCode: 'IDENTIFICATION_REQUIRED' },
    })
    r.sb.control.complianceBlock(PAYER_CPF)
    const held = await reviewedDeposit(r.service, depositDraft({ amountCents: 50_001 }))
    expect(held).toMatchObject({
      localState: 'rejected',
      error: { kind: 'compliance', status: 422, denialCode: 'COMPLIANCE_BLOCKED' },
    })
    r.sb.control.setMaintenance(true)
    const frozen = await reviewedDeposit(r.service, depositDraft({ endUserTaxNumber: '11144477735' }))
    expect(frozen).toMatchObject({
      localState: 'rejected',
      error: { kind: 'maintenance', retryAfterSeconds: 300 },
    })
    expect(r.sb.control.state().deposits).toEqual([])
    expect(r.posts()).toBe(3)
    expect(r.ledger.deposits.listOpen()).toEqual([])
  })

  it('an amount below the account fee is refused by the service, its message shown raw', async () => {
    r = await depositRig()
    const rec = await reviewedDeposit(r.service, depositDraft({ amountCents: 50 }))
    expect(rec.localState).toBe('rejected')
    expect(rec.error?.status).toBe(520)
    expect(rec.error?.message).toMatch(/99/)
  })
})

describe('outcome unknown after the POST: never resent, resolved by the operator', () => {
  it('503 without Retry-After (the deposit exists): linked by the operator after one status read', async () => {
    r = await depositRig()
    r.sb.control.injectFault({ kind: 'timeout_after_create', endpoint: 'deposit' })
    const rec = await reviewedDeposit(r.service, depositDraft())
    expect(rec).toMatchObject({
      localState: 'outcome_unknown',
      remoteId: null,
      error: { kind: 'outcome_unknown', status: 503 },
    })
    expect(r.posts()).toBe(1)
    // The tracker and time change nothing: nothing is resent, nothing guessed.
    r.service.tracker.start()
    await new Promise((x) => setTimeout(x, 300))
    expect(r.posts()).toBe(1)
    const id = r.sb.control.state().deposits[0]?.qrId as string
    const linked = await r.service.resolveUnknown(rec.localId, { depositId: id })
    expect(linked).toMatchObject({ localState: 'created', remoteId: id, remoteStatus: 'pending' })
    expect(r.ledger.audit({ subject: rec.localId }).rows[1]?.action).toBe('deposit.resolved')
    expect(r.posts()).toBe(1)
  })

  it.each([
    ['500', { kind: 'status', status: 500, endpoint: 'deposit' }],
    ['502', { kind: 'status', status: 502, endpoint: 'deposit' }],
    ['a reset connection', { kind: 'reset', endpoint: 'deposit' }],
  ] as const)('%s after the POST: outcome_unknown, one POST', async (_name, fault) => {
    r = await depositRig()
    r.sb.control.injectFault(fault)
    const rec = await reviewedDeposit(r.service, depositDraft())
    expect(rec.localState).toBe('outcome_unknown')
    expect(r.posts()).toBe(1)
    const none = await r.service.resolveUnknown(rec.localId, { notCreated: true })
    expect(none.localState).toBe('not_created')
    expect(r.posts()).toBe(1)
  })

  it('a client timeout while the service is slow: outcome_unknown, and the deposit did get created', async () => {
    r = await depositRig()
    r.sb.control.injectFault({ kind: 'slow', delayMs: 4_000, endpoint: 'deposit' })
    const rec = await reviewedDeposit(r.service, depositDraft())
    expect(rec.localState).toBe('outcome_unknown')
    expect(r.posts()).toBe(1)
    await new Promise((x) => setTimeout(x, 1_500))
    expect(r.sb.control.state().deposits).toHaveLength(1)
  }, 15_000)

  it('520 after the POST is a final refusal (rejected), not unknown', async () => {
    r = await depositRig()
    r.sb.control.injectFault({
      kind: 'refusal',
      status: 520,
      messageCode: 'NO_BANKING_NODE_AVAILABLE',
      endpoint: 'deposit',
    })
    const rec = await reviewedDeposit(r.service, depositDraft())
    expect(rec).toMatchObject({ localState: 'rejected', error: { messageCode: 'NO_BANKING_NODE_AVAILABLE' } })
    expect(r.posts()).toBe(1)
  })

  it('a link is refused when the API does not know the id, or the deposit is for another amount', async () => {
    r = await depositRig()
    r.sb.control.injectFault({ kind: 'status', status: 500, endpoint: 'deposit' })
    const rec = await reviewedDeposit(r.service, depositDraft())
    await expect(r.service.resolveUnknown(rec.localId, { depositId: 'no-such-qr' })).rejects.toMatchObject({
      code: 'remote_not_found',
    })
    const other = r.sb.control.createDeposit({
      amountInCents: 12_300,
      depixAddress: TREASURY_ADDRESS,
      endUserTaxNumber: PAYER_CPF,
    })
    await expect(r.service.resolveUnknown(rec.localId, { depositId: other.qrId })).rejects.toMatchObject({
      code: 'remote_mismatch',
      reason: 'amount',
    })
    expect(r.ledger.deposits.get(rec.localId)?.localState).toBe('outcome_unknown')
  })
})
