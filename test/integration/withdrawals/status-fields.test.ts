/**
 * One odd field of a GET /withdraw-status answer discards only that field (issue #11, item 9). The real client
 * reads crafted answers from a loopback server; the real service stores them in a ledger file.
 */
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'
import { fakeJwt, ok, startFakeServer, type FakeServer } from '../../main/api/helpers/fake-server'
import { seedCreated, tempDir } from '../../main/withdrawals/helpers'

const TOKEN = fakeJwt({ sub: 'p', scope: ['withdraw'], exp: Math.floor(Date.now() / 1000) + 3600 })
const REFUND = { txId: 'ab'.repeat(32), reason: 'invalid_pix_key', amountInCents: 900 }
const FLAG = 'remote_fields_invalid'

let server: FakeServer
let client: DepixClient
let ledger: Ledger
let service: WithdrawalService

beforeEach(async () => {
  server = await startFakeServer()
  client = createDepixClient({
    baseUrl: server.baseUrl,
    auth: { kind: 'legacy_token', token: TOKEN },
    limiter: 'off',
    timeoutMs: 3_000,
  })
  await client.signIn()
  ledger = openLedger(path.join(tempDir(), 'ledger.sqlite'))
  service = createWithdrawalService({
    ledger,
    client,
    operator: 'ana',
    network: 'liquid',
    profile: 'sandbox',
  })
})
afterEach(async () => {
  await service.tracker.stop()
  await client.close()
  await server.close()
  ledger.close()
})

function seeded(remoteId: string, status: string) {
  const rec = seedCreated(ledger, { remoteId, status })
  expect(rec.remoteStatus).toBe(status)
  return rec
}

describe('a status answer is read field by field', () => {
  it('a fractional payoutAmountInCents is dropped alone: the refund and the status still count', async () => {
    const rec = seeded('w-frac', 'error')
    server.route(
      'GET /api/withdraw-status',
      ok({ id: 'w-frac', status: 'refunded', payoutAmountInCents: 1234.5, refund: REFUND }),
    )
    const after = await service.refresh(rec.localId)
    expect(after.remoteStatus).toBe('refunded')
    expect(after.refund).toMatchObject({ txId: REFUND.txId })
    expect(after.payoutAmountCents).toBe(rec.payoutAmountCents)
    expect(Number.isSafeInteger(after.payoutAmountCents)).toBe(true)
    expect(after.flags).toContain(FLAG)
    // Stored raw: the odd value is kept as evidence.
    const last = ledger.observations(rec.localId).at(-1)
    expect(last?.body).toMatchObject({ payoutAmountInCents: 1234.5 })
  })

  it('a null status keeps the status the record shows, and still records the refund', async () => {
    const rec = seeded('w-null', 'error')
    server.route('GET /api/withdraw-status', ok({ id: 'w-null', status: null, refund: REFUND }))
    const after = await service.refresh(rec.localId)
    expect(after.remoteStatus).toBe('error')
    expect(after.refund).toMatchObject({ txId: REFUND.txId, reason: 'invalid_pix_key' })
    expect(after.flags).toContain(FLAG)
    expect(ledger.observations(rec.localId).at(-1)?.body).toMatchObject({ status: null })
  })

  it('a string refund is dropped alone: the status and the other fields still count', async () => {
    const rec = seeded('w-str', 'sending')
    server.route(
      'GET /api/withdraw-status',
      ok({ id: 'w-str', status: 'sent', receiverName: 'Maria Silva', refund: 'pending' }),
    )
    const after = await service.refresh(rec.localId)
    expect(after.remoteStatus).toBe('sent')
    expect(after.receiverName).toBe('Maria Silva')
    expect(after.refund).toBeNull()
    expect(after.flags).toContain(FLAG)
  })

  it('the client names the dropped fields and keeps the raw answer', async () => {
    server.route(
      'GET /api/withdraw-status',
      ok({ id: 'w-x', status: 7, payoutAmountInCents: 0.5, refund: { txId: 42, reason: 'payout_failure' } }),
    )
    const res = await client.withdrawStatus('w-x')
    expect(res.data.id).toBe('w-x')
    expect(res.data.status).toBeUndefined()
    expect(res.data.payoutAmountInCents).toBeUndefined()
    expect(res.data.refund).toMatchObject({ reason: 'payout_failure' })
    expect(res.raw).toMatchObject({ status: 7, payoutAmountInCents: 0.5 })
    const { invalidStatusFields } = await import('../../../src/main/api')
    expect(invalidStatusFields(res.raw, res.data).sort()).toEqual(
      ['payoutAmountInCents', 'refund.txId', 'status'].sort(),
    )
  })

  it('a clean answer afterwards lowers the flag', async () => {
    const rec = seeded('w-clean', 'unsent')
    server.route(
      'GET /api/withdraw-status',
      ok({ id: 'w-clean', status: null }),
      ok({ id: 'w-clean', status: 'sending' }),
    )
    expect((await service.refresh(rec.localId)).flags).toContain(FLAG)
    const clean = await service.refresh(rec.localId)
    expect(clean.remoteStatus).toBe('sending')
    expect(clean.flags).not.toContain(FLAG)
  })
})
