/**
 * A hostile analyst at a psql prompt against what the team shares besides records: the rate budget (starving the
 * other desks), the receipts (a URL of her choosing, bytes changed after the fact) and the NOTIFY channels (a
 * crafted payload: a desk re-reads the database, never trusts it). Real throwaway cluster, one for the file.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite'
import { startLeadership, type PgLedgerStore, type TrackerLeadership } from '../../../src/main/ledger/engines'
import type { TeamSettingsEvent } from '../../../src/main/ledger/pg/settings-event'
import { PENALTY_CALL_MAX_MS } from '../../../src/main/ledger/pg/migrations/0012-leadership'
import { recordRow } from '../../../src/main/ledger/pg/rows'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { psqlAs, sqlstate } from './adversary'
import { startTeam, type Team } from './team'

announceSkip('adversarial: rate budget, receipts, notifications (postgres)')

const input = (): NewWithdrawal => {
  const pixKey = `${randomUUID()}@example.com`
  return {
    localId: randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: 5_000 },
    pixKey,
    amountKind: 'payout',
    amountCents: 5_000,
  }
}

async function until<T>(what: string, f: () => T | undefined, ms = 5_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('adversarial: rate budget, receipts, notifications', () => {
  let team: Team
  let ana: PgLedgerStore
  let eve: pg.Client
  let owner: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    eve = await psqlAs(team, 'eve')
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => {
    await eve?.end().catch(() => undefined)
    await team?.stop()
  })

  describe('rate budget', () => {
    const secondsAhead = async (endpoint: string): Promise<number> => {
      const r = await owner.query(
        'SELECT extract(epoch FROM (at - clock_timestamp()))::float8 AS s FROM rate_buckets WHERE endpoint = $1',
        [endpoint],
      )
      return Number(r.rows[0].s)
    }
    const reset = (): Promise<unknown> =>
      owner.query('UPDATE rate_buckets SET at = clock_timestamp(), tokens = 1')

    it('one penalty stops the desks at most 5 minutes (migration 9 capped it at the app’s own wait, 12 lower)', async () => {
      await eve.query('SELECT penalize_rate($1, $2)', ['withdraw', 1e15])
      const s = await secondsAhead('withdraw')
      expect(s).toBeGreaterThan(PENALTY_CALL_MAX_MS / 1000 - 5)
      expect(s).toBeLessThanOrEqual(PENALTY_CALL_MAX_MS / 1000)
      await reset()
      for (const v of ['NaN', '-Infinity', '-5']) {
        await eve.query('SELECT penalize_rate($1, $2::float8)', ['deposit', v])
        expect([v, (await secondsAhead('deposit')) <= 0.5]).toEqual([v, true])
      }
      await eve.query(`SELECT penalize_rate('deposit', 'Infinity'::float8)`)
      expect(await secondsAhead('deposit')).toBeLessThanOrEqual(PENALTY_CALL_MAX_MS / 1000)
      await reset()
    })

    it('cannot change the buckets themselves, nor invent an endpoint', async () => {
      expect(await sqlstate(eve.query('UPDATE rate_buckets SET tokens = 0'))).toBe('42501')
      expect(await sqlstate(eve.query(`SELECT take_rate_token('nope')`))).toBe('22023')
    })
  })

  describe('receipts', () => {
    it("registers only the service's URL; a URL written by hand is audited under its writer's name", async () => {
      const rec = await ana.insertSubmitting(input(), 'Ana')
      const evil = 'https://evil.example/r.pdf'
      expect(
        await sqlstate(
          eve.query('INSERT INTO receipts (local_id, url) VALUES ($1, $2)', [rec.localId, evil]),
        ),
      ).toBe('22023')
      // No UPDATE since migration 11. What the tracker of any desk must be able to write (last_remote, through
      // write_withdrawal) she can write too: the database takes it, but under her name in the trail, with the
      // state hash it computed itself, so nobody's entry is forged.
      expect(
        await sqlstate(
          eve.query(
            `UPDATE withdrawals SET last_remote = jsonb_build_object('receiptUrl', $2::text) WHERE local_id = $1`,
            [rec.localId, evil],
          ),
        ),
      ).toBe('42501')
      const created = await ana.markCreated(rec.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: null,
        requestId: null,
      })
      await eve.query(`SELECT write_withdrawal($1::jsonb, false, NULL, 'withdrawal.observed', '{}')`, [
        recordRow({ ...created, lastRemote: { receiptUrl: evil } }),
      ])
      await eve.query('INSERT INTO receipts (local_id, url) VALUES ($1, $2)', [rec.localId, evil])
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
      const last = await owner.query(
        `SELECT operator, action FROM audit_log WHERE subject = $1 ORDER BY seq DESC LIMIT 1`,
        [rec.localId],
      )
      expect(last.rows[0]).toEqual({ operator: 'eve', action: 'withdrawal.observed' })
      const who = await owner.query('SELECT noticed_by FROM receipts WHERE local_id = $1', [rec.localId])
      expect(who.rows[0].noticed_by).toBe('eve')

      // Bytes whose hash is not theirs are refused; stored bytes are final, under the name of who stored them.
      const bytes = Buffer.from('%PDF-1.4 forged')
      const sha = (b: Buffer): Promise<string> =>
        owner.query(`SELECT encode(sha256($1::bytea), 'hex') AS h`, [b]).then((r) => String(r.rows[0].h))
      expect(
        await sqlstate(
          eve.query(
            `UPDATE receipts SET state = 'stored', bytes = $2, sha256 = $3, size = $4, media_type = 'application/pdf'
             WHERE local_id = $1`,
            [rec.localId, bytes, 'ab'.repeat(32), bytes.length],
          ),
        ),
      ).toBe('22023')
      await eve.query(
        `UPDATE receipts SET state = 'stored', bytes = $2, sha256 = $3, size = $4, media_type = 'application/pdf'
         WHERE local_id = $1`,
        [rec.localId, bytes, await sha(bytes), bytes.length],
      )
      const other = Buffer.from('%PDF-1.4 other')
      expect(
        await sqlstate(
          eve.query(`UPDATE receipts SET bytes = $2, sha256 = $3, size = $4 WHERE local_id = $1`, [
            rec.localId,
            other,
            await sha(other),
            other.length,
          ]),
        ),
      ).toBe('42501')
      expect(await sqlstate(eve.query(`UPDATE receipts SET fetched_by = 'ana'`))).toBe('42501')
      const audit = await owner.query(
        `SELECT operator, details FROM audit_log WHERE action = 'receipt.stored' AND subject = $1`,
        [rec.localId],
      )
      expect(audit.rows).toHaveLength(1)
      expect(audit.rows[0].operator).toBe('eve')
      expect(JSON.parse(String(audit.rows[0].details))).toMatchObject({
        fetchedBy: 'eve',
        sha256: await sha(bytes),
      })
    })
  })

  describe('notifications', () => {
    let l: TrackerLeadership
    const heard: TeamSettingsEvent[] = []
    beforeAll(async () => {
      l = startLeadership({ connection: team.config('ana'), retryMs: 100 })
      l.on('settings', (s) => heard.push(s))
      await l.ready()
    })
    afterAll(async () => l?.stop())

    it('a crafted depix_settings payload is read again from the table, never believed', async () => {
      await owner.query('UPDATE team_settings SET approval_above_cents = 5000 WHERE id = 1')
      await until('5000', () => (heard.at(-1)?.approvalAboveCents === 5000 ? 1 : undefined))
      const n = heard.length
      // "Approval is off" and "everything above R$ 1.000.000": both lies, both valid-looking.
      await eve.query(`SELECT pg_notify('depix_settings', '{"approvalAboveCents":null}')`)
      await eve.query(`SELECT pg_notify('depix_settings', '{"approvalAboveCents":100000000}')`)
      await until('two re-reads', () => (heard.length >= n + 2 ? 1 : undefined))
      expect(heard.slice(n).map((e) => e.approvalAboveCents)).toEqual([5000, 5000])
      // The table was not changed by the NOTIFY: the database still asks for the approval.
      const t = await eve.query('SELECT approval_above_cents FROM team_settings')
      expect(t.rows[0].approval_above_cents).toBe('5000')
    })
  })
})
