/**
 * `penalize_rate` as a hostile analyst at psql (issue #24 attack 7): called in a loop with an hour's wait it used to
 * hold every desk's calls back for that hour, again and again. Each call is now capped at 5 minutes, one role's
 * penalties on one endpoint at 10 minutes in any 15, and every call is logged with who made it.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PgLedgerStore } from '../../../../src/main/ledger/engines'
import { sharedRateBudget } from '../../../../src/main/api/team-rate-budget'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('rate penalties (postgres)')

describe.skipIf(PG_SKIP_REASON !== null)('rate penalties bounded and audited', () => {
  let team: Team
  let bia: PgLedgerStore
  let hostile: pg.Client
  let owner: pg.Client

  beforeAll(async () => {
    team = await startTeam()
    bia = await team.desk('bia')
    await team.addAnalyst('caio')
    hostile = new pg.Client({ ...team.config('caio'), options: '-c search_path=ledger,pg_temp' })
    hostile.on('error', () => undefined)
    await hostile.connect()
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => {
    await hostile?.end().catch(() => undefined)
    await team?.stop()
  })

  /** How long from now the endpoint's bucket holds every desk back (ms, 0 when it does not). */
  const blockedMs = async (endpoint: string): Promise<number> => {
    const r = await owner.query(
      `SELECT greatest(0, extract(epoch FROM at - clock_timestamp()) * 1000)::float8 AS ms FROM rate_buckets WHERE endpoint = $1`,
      [endpoint],
    )
    return Number(r.rows[0]?.ms)
  }

  it('caps one call at 5 minutes', async () => {
    await hostile.query(`SELECT penalize_rate('withdraw', 3600000)`)
    const ms = await blockedMs('withdraw')
    expect(ms).toBeGreaterThan(290_000)
    expect(ms).toBeLessThanOrEqual(300_000)
  })

  it('caps one role at 10 minutes in any 15 however often it calls; another desk still gets its own penalty in', async () => {
    const blocks: number[] = []
    for (let round = 0; round < 3; round++) {
      // Each round starts with the previous block over (as if its minutes had passed).
      await owner.query(`UPDATE rate_buckets SET at = clock_timestamp() WHERE endpoint = 'deposit'`)
      for (let i = 0; i < 20; i++) await hostile.query(`SELECT penalize_rate('deposit', 3600000)`)
      blocks.push(await blockedMs('deposit'))
    }
    // 5 minutes, then what is left of the role's 10, then nothing.
    expect(blocks[0]).toBeGreaterThan(295_000)
    expect(blocks[0]).toBeLessThanOrEqual(300_000)
    expect(blocks[1]).toBeGreaterThan(290_000)
    expect(blocks[1]).toBeLessThanOrEqual(300_000)
    expect(blocks[2]).toBeLessThan(1_000)
    const used = await owner.query(
      `SELECT count(*)::int AS n, sum(applied_ms)::int AS applied FROM rate_penalties WHERE db_user = 'caio' AND endpoint = 'deposit'`,
    )
    expect(used.rows[0]?.n).toBe(60)
    expect(used.rows[0]?.applied).toBeGreaterThan(590_000)
    expect(used.rows[0]?.applied).toBeLessThanOrEqual(600_000)
    // A real 429 on another desk still counts in full: the cap is per role.
    await sharedRateBudget(bia.pool).penalize('deposit', 60_000)
    expect(await blockedMs('deposit')).toBeGreaterThan(55_000)
  })

  it('logs every call with the role that made it; the log is not writable by analysts', async () => {
    await hostile.query(`SELECT penalize_rate('user-info', 'NaN'::float8)`)
    const r = await owner.query(
      `SELECT db_user, asked_ms, applied_ms FROM rate_penalties WHERE endpoint = 'user-info' ORDER BY id`,
    )
    expect(r.rows).toEqual([{ db_user: 'caio', asked_ms: null, applied_ms: 0 }])
    await expect(
      hostile.query(
        `INSERT INTO rate_penalties (at, db_user, endpoint, asked_ms, applied_ms) VALUES (now(), 'bia', 'withdraw', 1, 900000)`,
      ),
    ).rejects.toMatchObject({ code: '42501' })
    await expect(hostile.query(`DELETE FROM rate_penalties WHERE db_user = 'caio'`)).rejects.toMatchObject({
      code: '42501',
    })
    await expect(hostile.query(`UPDATE rate_penalties SET applied_ms = 0`)).rejects.toMatchObject({
      code: '42501',
    })
    await expect(hostile.query(`SELECT penalize_rate('no-such-endpoint', 1000)`)).rejects.toMatchObject({
      code: '22023',
    })
    // Analysts read it: the team can see who held it back.
    expect((await hostile.query('SELECT count(*)::int AS n FROM rate_penalties')).rows[0]?.n).toBeGreaterThan(
      0,
    )
  })
})
