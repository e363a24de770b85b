/**
 * markFundedMany (paying from the wallet, issue #28): one funding transaction recorded on many payments in one
 * ledger transaction, on both engines — the embedded SQLite ledger and the team ledger on a real PostgreSQL server
 * (as an analyst role, through write_withdrawal). Every payment gets the txid and exactly markFunded's audit entry;
 * a refusal of any one leaves every one as it was.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerStore } from '../../../src/main/ledger/engines'
import { bothEngines } from './engines'

const engines = bothEngines('markFundedMany', 'funded-many-')

const TX = 'a'.repeat(64)

async function payment(store: LedgerStore, profile: string, created = true): Promise<string> {
  const pixKey = `${randomUUID()}@example.com`
  const rec = await store.insertSubmitting(
    {
      localId: randomUUID(),
      profile,
      pixKey,
      amountKind: 'deposit',
      amountCents: 1_000,
      request: { pixKey, depositAmountInCents: 1_000 },
    },
    'Ana',
  )
  if (created) {
    const remoteId = `w-${randomUUID()}`
    await store.markCreated(rec.localId, {
      remoteId,
      createResponse: { id: remoteId, status: 'unsent' },
      requestId: `req-${remoteId}`,
      depositAddress: 'lq1qqexampleaddress',
      depositAmountCents: 1_000,
      status: 'unsent',
    })
  }
  return rec.localId
}

async function fundedEntries(store: LedgerStore, localId: string) {
  return (await store.audit({ subject: localId })).rows.filter((r) => r.action === 'withdrawal.funded')
}

describe.each(engines)('markFundedMany on $name', (engine) => {
  let store: LedgerStore
  let done: () => Promise<void>
  beforeAll(async () => {
    ;({ store, done } = await engine.open())
  }, 120_000)
  afterAll(async () => done?.())

  it('records the txid on every payment with one funded entry each; repeating it writes nothing', async () => {
    const profile = `p-${randomUUID()}`
    const ids = [await payment(store, profile), await payment(store, profile), await payment(store, profile)]
    // One of them was already declared with this txid by hand: left as it is.
    const byHand = await store.markFunded(ids[1] as string, { txId: TX }, 'Ana')
    const rs = await store.markFundedMany(ids, { txId: TX }, 'Bia')
    expect(rs.map((r) => r.localId)).toEqual(ids)
    for (const id of ids) {
      const r = await store.get(id)
      expect(r?.fundingTxId).toBe(TX)
      expect(r?.fundedAt).not.toBeNull()
      const entries = await fundedEntries(store, id)
      expect(entries).toHaveLength(1)
      expect(entries[0]?.details).toMatchObject({ txId: TX, repeat: false })
    }
    expect((await store.get(ids[1] as string))?.fundedAt).toBe(byHand.fundedAt)
    await store.markFundedMany(ids, { txId: TX }, 'Bia')
    for (const id of ids) expect(await fundedEntries(store, id)).toHaveLength(1)
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('all or none: one payment that cannot be funded leaves every payment unrecorded', async () => {
    const profile = `p-${randomUUID()}`
    const ids = [
      await payment(store, profile),
      await payment(store, profile, false),
      await payment(store, profile),
    ]
    await expect(store.markFundedMany(ids, { txId: TX }, 'Ana')).rejects.toMatchObject({
      code: 'illegal_transition',
    })
    for (const id of ids) {
      expect((await store.get(id))?.fundingTxId).toBeNull()
      expect(await fundedEntries(store, id)).toHaveLength(0)
    }
    const unknown = [ids[0] as string, `missing-${randomUUID()}`]
    await expect(store.markFundedMany(unknown, { txId: TX }, 'Ana')).rejects.toMatchObject({
      code: 'not_found',
    })
    expect((await store.get(ids[0] as string))?.fundingTxId).toBeNull()
  })

  it('refuses a payment listed twice or an empty txid before writing', async () => {
    const profile = `p-${randomUUID()}`
    const id = await payment(store, profile)
    await expect(store.markFundedMany([id, id], { txId: TX }, 'Ana')).rejects.toMatchObject({
      code: 'invalid_input',
    })
    await expect(store.markFundedMany([id], { txId: ' ' }, 'Ana')).rejects.toMatchObject({
      code: 'invalid_input',
    })
    expect(await fundedEntries(store, id)).toHaveLength(0)
  })
})
