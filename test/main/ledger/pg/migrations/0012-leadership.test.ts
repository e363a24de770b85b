/**
 * Migration 12 on a team database already in use (schema 10, records and a rate block in place): no row or audit
 * entry changes,
 * the lease starts with nobody leading, the first desk takes it, and penalize_rate is the bounded, logged one.
 */
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratePg, openPgStore, startLeadership } from '../../../../../src/main/ledger/engines'
import { readLease } from '../../../../../src/main/ledger/team/lease'
import { PG_LATEST_VERSION, PG_MIGRATIONS } from '../../../../../src/main/ledger/pg/schema'
import { announceSkip, PG_SKIP_REASON, startCluster, type PgCluster } from '../../../../support/postgres'
import { insertWithdrawal } from '../../adversary'

announceSkip('migration 12 on a database in use (postgres)')

const SETUP_SQL = path.resolve(__dirname, '../../../../../resources/team-ledger/setup.sql')
const DB = 'depix_team'

describe.skipIf(PG_SKIP_REASON !== null)('migration 12 on a database in use', () => {
  let cluster: PgCluster
  let owner: pg.Client
  beforeAll(async () => {
    cluster = await startCluster()
    cluster.psqlFile(SETUP_SQL, { owner_password: 'owner-secret' })
    owner = new pg.Client({
      ...cluster.config('depix_owner', 'owner-secret', DB),
      options: '-c search_path=ledger,pg_temp',
    })
    await owner.connect()
  }, 120_000)
  afterAll(async () => {
    await owner?.end().catch(() => undefined)
    cluster?.stop()
  })

  it('keeps every row, starts with nobody leading, and bounds penalties from then on', async () => {
    const before = PG_MIGRATIONS.filter((m) => m.version < 12)
    expect(await migratePg(owner, before)).toBe(before.at(-1)?.version)
    await cluster.createLogin('ana', 'ana-pw', 'depix_analysts')
    for (let i = 0; i < 3; i++) await insertWithdrawal(owner, { claimedUser: 'ana', cents: 1_000 + i })
    await owner.query(`SELECT penalize_rate('withdraw', 3600000)`)
    for (const a of ['one', 'two'])
      await owner.query(`SELECT append_audit($1, 'x', '{}', NULL)`, [`test.${a}`])
    const rows = (await owner.query('SELECT local_id, amount_cents FROM withdrawals ORDER BY local_id')).rows
    const audit = (await owner.query('SELECT * FROM audit_log ORDER BY seq')).rows
    // Three payments written through write_withdrawal (migration 11 audits each) and the two entries above.
    expect(audit).toHaveLength(5)
    const head = (await owner.query('SELECT * FROM audit_head')).rows

    expect(await migratePg(owner)).toBe(PG_LATEST_VERSION)
    expect(
      (await owner.query('SELECT local_id, amount_cents FROM withdrawals ORDER BY local_id')).rows,
    ).toEqual(rows)
    expect((await owner.query('SELECT * FROM audit_log ORDER BY seq')).rows).toEqual(audit)
    expect((await owner.query('SELECT * FROM audit_head')).rows).toEqual(head)
    expect(await readLease(owner)).toBeNull()
    expect((await owner.query('SELECT count(*)::int AS n FROM rate_penalties')).rows[0]?.n).toBe(0)

    const store = await openPgStore({ connection: cluster.config('ana', 'ana-pw', DB) })
    const l = startLeadership({ connection: cluster.config('ana', 'ana-pw', DB), retryMs: 200 })
    try {
      await l.ready()
      expect(l.isLeader).toBe(true)
      expect(await readLease(owner)).toMatchObject({ holder: 'ana', epoch: 1, lapsed: false })
      // The hour-long block set under migration 9 stands; a new penalty is capped and logged.
      await owner.query(`UPDATE rate_buckets SET at = clock_timestamp() WHERE endpoint = 'withdraw'`)
      await store.pool.query(`SELECT penalize_rate('withdraw', 3600000)`)
      const ahead = await owner.query(
        `SELECT extract(epoch FROM at - clock_timestamp()) * 1000 AS ms FROM rate_buckets WHERE endpoint = 'withdraw'`,
      )
      expect(Number(ahead.rows[0]?.ms)).toBeLessThanOrEqual(300_000)
      expect((await owner.query('SELECT db_user FROM rate_penalties')).rows).toEqual([{ db_user: 'ana' }])
    } finally {
      await l.stop()
      await store.close()
    }
  }, 60_000)
})
