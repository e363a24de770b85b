/**
 * Team migration 17 on a real PostgreSQL server: two desks (two analyst roles, each its own pool) building for the
 * same payment — the second is refused with `already_in_funding` naming the payment, until the first cancels; a
 * claim is idempotent for its own attempt; only the claiming role can release; a recorded attempt keeps holding.
 * Then a hostile analyst at psql: no direct INSERT, UPDATE or DELETE on `funding_attempts`.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PayRefusal } from '../../../../src/main/wallet/pay/errors'
import { pgFundingGuard, type FundingGuard } from '../../../../src/main/wallet/pay/team-guard'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { insertWithdrawal, psqlAs, sqlstate } from '../../ledger/adversary'
import { startTeam, type Team } from '../../ledger/team'

announceSkip('migration 17: one funding attempt per payment on the team (postgres)')

const TX1 = 'a'.repeat(64)
const TX2 = 'b'.repeat(64)

async function refusal(p: Promise<unknown>): Promise<PayRefusal> {
  try {
    await p
  } catch (e) {
    if (e instanceof PayRefusal) return e
    throw e
  }
  throw new Error('not refused')
}

describe.skipIf(PG_SKIP_REASON !== null)('migration 17: one funding attempt per payment on the team', () => {
  let team: Team
  let eve: pg.Client
  let ana: FundingGuard
  let bia: FundingGuard
  let payment: string
  let other: string
  beforeAll(async () => {
    team = await startTeam()
    eve = await psqlAs(team, 'eve')
    ana = pgFundingGuard((await team.desk('ana')).pool)
    bia = pgFundingGuard((await team.desk('bia')).pool)
    payment = (await insertWithdrawal(eve, { pixKey: 'um@example.com' })).rows[0].local_id as string
    other = (await insertWithdrawal(eve, { pixKey: 'dois@example.com' })).rows[0].local_id as string
  }, 120_000)
  afterAll(async () => {
    await eve?.end().catch(() => undefined)
    await team?.stop()
  })

  const rows = async (
    localId: string,
  ): Promise<Array<{ attempt_id: string; state: string; claimed_by: string }>> =>
    (
      await eve.query(
        'SELECT attempt_id, state, claimed_by FROM funding_attempts WHERE local_id = $1 ORDER BY claimed_at',
        [localId],
      )
    ).rows

  it('two desks build for the same payment: the second is refused until the first cancels', async () => {
    const first = randomUUID()
    const second = randomUUID()
    await ana.claim(first, [payment], TX1)
    await ana.claim(first, [payment], TX1) // the same attempt again (broadcast re-claims): fine
    const r = await refusal(bia.claim(second, [other, payment], TX2))
    expect(r.code).toBe('already_in_funding')
    expect(r.details.localId).toBe(payment)
    // All or nothing: the other payment of the refused attempt was not taken.
    expect(await rows(other)).toEqual([])
    // Bia cannot release Ana's attempt to free the payment for herself, nor mark it recorded.
    await bia.release(first)
    await bia.recorded(first)
    expect((await rows(payment))[0]?.state).toBe('live')
    expect((await refusal(bia.claim(second, [payment], TX2))).code).toBe('already_in_funding')
    await ana.release(first)
    await bia.claim(second, [payment, other], TX2)
    expect(await rows(payment)).toEqual([
      { attempt_id: first, state: 'cancelled', claimed_by: 'ana' },
      { attempt_id: second, state: 'live', claimed_by: 'bia' },
    ])
    // Recorded keeps holding: the payment is funded.
    await bia.recorded(second)
    expect((await rows(other))[0]?.state).toBe('recorded')
    expect((await refusal(ana.claim(randomUUID(), [other], TX1))).code).toBe('already_in_funding')
    // A recorded attempt is not released.
    await bia.release(second)
    expect((await rows(other))[0]?.state).toBe('recorded')
  })

  it('a payment the team does not have cannot be claimed', async () => {
    expect(await sqlstate(ana.claim(randomUUID(), [randomUUID()], TX1))).toBe('23503')
  })

  it('a hostile analyst at psql cannot insert, change or delete attempts directly', async () => {
    const loose = (await insertWithdrawal(eve, { pixKey: 'tres@example.com' })).rows[0].local_id as string
    expect(
      await sqlstate(
        eve.query(`INSERT INTO funding_attempts (local_id, attempt_id, txid) VALUES ($1, $2, $3)`, [
          loose,
          randomUUID(),
          TX1,
        ]),
      ),
    ).toBe('42501')
    expect(await sqlstate(eve.query(`UPDATE funding_attempts SET state = 'cancelled'`))).toBe('42501')
    expect(await sqlstate(eve.query(`DELETE FROM funding_attempts`))).toBe('42501')
    expect(await sqlstate(eve.query(`TRUNCATE funding_attempts`))).toBe('42501')
    expect(await rows(payment)).toHaveLength(2)
  })
})
