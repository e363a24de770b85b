import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ENDPOINT_DEFS, depositBody, withdrawBody } from '../../../src/main/api/endpoints'
import { ApiError } from '../../../src/main/api/errors'
import type { WithdrawRequest } from '../../../src/shared/withdrawal'

const env = (response: unknown) => ({ response, async: false })

describe('response schemas (API contract §2)', () => {
  it('a create answer with only withdrawalId is enough', () => {
    const r = ENDPOINT_DEFS.withdraw.envelope.safeParse(env({ withdrawalId: 'w1' }))
    expect(r.success).toBe(true)
  })

  it('keeps unknown fields, at the top and inside refund', () => {
    const body = env({
      id: 'w1',
      status: 'a_status_nobody_told_us_about',
      refund: { txId: 't', reason: 'invalid_pix_key', feeInCents: 100, initiatedBy: 'system' },
      brandNewField: { nested: true },
    })
    const r = ENDPOINT_DEFS['withdraw-status'].envelope.parse(body)
    expect(r.response.status).toBe('a_status_nobody_told_us_about')
    expect(r.response).toMatchObject({ brandNewField: { nested: true } })
    expect(r.response.refund).toMatchObject({ feeInCents: 100, initiatedBy: 'system' })
  })

  it('treats null optional fields as absent', () => {
    const r = ENDPOINT_DEFS['withdraw-status'].envelope.safeParse(
      env({ id: 'w', status: 's', blockchainTxID: null }),
    )
    expect(r.success).toBe(true)
  })

  it('refuses non-integer or unsafe amounts anywhere', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ noInteger: true, noNaN: true }), fc.constant(2 ** 53), fc.constant(Number.NaN)),
        (bad) => {
          // A status answer drops the odd amount alone (issue #11): the answer stays, the amount is absent.
          const status = ENDPOINT_DEFS['withdraw-status'].envelope.safeParse(
            env({ id: 'w', status: 's', payoutAmountInCents: bad }),
          )
          expect(status.success).toBe(true)
          expect(
            (status.data as { response: Record<string, unknown> }).response.payoutAmountInCents,
          ).toBeUndefined()
          expect(
            ENDPOINT_DEFS.withdraw.envelope.safeParse(env({ withdrawalId: 'w', depositAmountInCents: bad }))
              .success,
          ).toBe(false)
          expect(
            ENDPOINT_DEFS['deposit-status'].envelope.safeParse(
              env({ qrId: 'q', status: 's', valueInCents: bad }),
            ).success,
          ).toBe(false)
        },
      ),
    )
  })

  it('refuses a missing id, and async: true', () => {
    expect(ENDPOINT_DEFS['withdraw-status'].envelope.safeParse(env({ status: 's' })).success).toBe(false)
    expect(ENDPOINT_DEFS.withdraw.envelope.safeParse(env({ withdrawalId: '' })).success).toBe(false)
    expect(
      ENDPOINT_DEFS.ping.envelope.safeParse({
        response: { msg: 'p', claims_for_token_debug: {} },
        async: true,
      }).success,
    ).toBe(false)
  })

  it('deposit rows come as an array (or under `deposits`) and keep unknown statuses', () => {
    const rows = [
      { qrId: 'q1', status: 'approved', bankTxId: 'b' },
      { qrId: 'q2', status: 'new_status' },
    ]
    expect(ENDPOINT_DEFS.deposits.envelope.parse(env(rows)).response).toEqual(rows)
    expect(ENDPOINT_DEFS.deposits.envelope.parse(env({ deposits: rows })).response).toEqual(rows)
  })
})

describe('request bodies', () => {
  const base = { pixKey: 'a@b.co', taxNumber: '52998224725' }

  it('sends exactly the known fields, one amount', () => {
    const body = JSON.parse(
      withdrawBody({ ...base, payoutAmountInCents: 1000, extra: 'x' } as unknown as WithdrawRequest),
    ) as Record<string, unknown>
    expect(body).toEqual({ pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 })
  })

  it.each([
    ['both amounts', { ...base, payoutAmountInCents: 1000, depositAmountInCents: 1000 }],
    ['no amount', { ...base }],
    ['float amount', { ...base, payoutAmountInCents: 10.5 }],
    ['string amount', { ...base, payoutAmountInCents: '1000' }],
    ['empty pix key', { ...base, pixKey: '', payoutAmountInCents: 1000 }],
    ['empty euid', { ...base, euid: '', payoutAmountInCents: 1000 }],
  ])('refuses locally: %s', (_name, req) => {
    expect(() => withdrawBody(req as unknown as WithdrawRequest)).toThrow(ApiError)
  })

  it('deposit body: integer amount, optional fields only when given', () => {
    expect(JSON.parse(depositBody({ amountInCents: 500, depixAddress: 'lq1x', euid: 'e' }))).toEqual({
      amountInCents: 500,
      depixAddress: 'lq1x',
      euid: 'e',
    })
    expect(() => depositBody({ amountInCents: 5.5 })).toThrow(ApiError)
  })
})
