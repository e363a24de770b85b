/**
 * The team's shared rate bucket under contention: a desk that waits for the bucket's row lock while another desk
 * takes a token must still get one when tokens are free (take_rate_token reads its clock under the lock).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { OWNER, startTeam, type Team } from '../team'

announceSkip('team rate token (postgres)')

describe.skipIf(PG_SKIP_REASON !== null)('take_rate_token under contention', () => {
  let team: Team
  beforeAll(async () => {
    team = await startTeam()
    await team.desk('ana')
  }, 120_000)
  afterAll(async () => team?.stop())

  it('a desk that waited for the lock behind another desk’s take still gets a free token', async () => {
    const owner = await team.owner()
    await owner.query(
      `UPDATE rate_buckets SET tokens = 5, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
    )
    // The holder (the owner's session, as another desk's transaction would) has the bucket's row locked; the
    // waiter's call starts, then the holder takes a token after it and commits.
    const holder = new pg.Client({ ...team.config(OWNER), options: '-c search_path=ledger,pg_temp' })
    const waiter = new pg.Client({ ...team.config('ana'), options: '-c search_path=ledger,pg_temp' })
    await holder.connect()
    await waiter.connect()
    try {
      await holder.query('BEGIN')
      await holder.query(`SELECT 1 FROM rate_buckets WHERE endpoint = 'withdraw' FOR UPDATE`)
      const waited = waiter.query(`SELECT take_rate_token('withdraw') AS w`)
      await new Promise((r) => setTimeout(r, 300))
      expect((await holder.query(`SELECT take_rate_token('withdraw') AS w`)).rows[0].w).toBe(0)
      await holder.query('COMMIT')
      // 4 tokens were left: the waiter must get one, not a "wait" for a token that is there.
      expect((await waited).rows[0].w).toBe(0)
      const left = await owner.query(`SELECT tokens FROM rate_buckets WHERE endpoint = 'withdraw'`)
      expect(Number(left.rows[0].tokens)).toBeGreaterThanOrEqual(3)
      expect(Number(left.rows[0].tokens)).toBeLessThan(4)
    } finally {
      await holder.end()
      await waiter.end()
    }
  })
})
