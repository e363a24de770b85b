/**
 * A hostile analyst at a psql prompt (a valid depix_analysts role, no app) and a careless owner against the team
 * ledger's audit chain, identities and privileges: every attempt is refused by SQLSTATE, or, where the database
 * lets the row change, reported by verifyAuditChain. One throwaway cluster for the file; the attempts that leave
 * the chain broken for good run last.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite'
import type { PgLedgerStore } from '../../../src/main/ledger/engines'
import { recordRow } from '../../../src/main/ledger/pg/rows'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { recordStateHash } from '../../../src/main/ledger/model/state-hash'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { insertWithdrawal, psqlAs, sqlstate } from './adversary'
import { startTeam, type Team } from './team'

announceSkip('adversarial: audit chain, identities, privileges (postgres)')

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

const APPEND_ONLY = [
  'audit_log',
  'audit_head',
  'approvals',
  'withdrawals',
  'observations',
  'deposits',
  'deposit_observations',
  'payees',
  'payee_keys',
  'receipts',
  'runs',
  'run_rows',
  'run_waves',
  'team_settings',
  'rate_buckets',
]

describe.skipIf(PG_SKIP_REASON !== null)('adversarial: audit chain, identities, privileges', () => {
  let team: Team
  let ana: PgLedgerStore
  let eve: pg.Client
  let owner: pg.Client
  const clients: pg.Client[] = []
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    await team.addAnalyst('bia')
    eve = await psqlAs(team, 'eve')
    clients.push(eve)
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined)
    await team?.stop()
  })

  it('cannot insert, update, delete or truncate the audit log or its head', async () => {
    await ana.insertSubmitting(input(), 'Ana')
    const forged = `INSERT INTO audit_log VALUES (999, 'x', 'ana', 'a', null, '{}', '${'0'.repeat(64)}', 'h', null)`
    expect(await sqlstate(eve.query(forged))).toBe('42501')
    expect(await sqlstate(eve.query(`UPDATE audit_log SET operator = 'bia'`))).toBe('42501')
    expect(await sqlstate(eve.query('DELETE FROM audit_log'))).toBe('42501')
    expect(await sqlstate(eve.query('TRUNCATE audit_log'))).toBe('42501')
    expect(await sqlstate(eve.query(`UPDATE audit_head SET hash = 'x'`))).toBe('42501')
    expect(await sqlstate(eve.query('DELETE FROM audit_head'))).toBe('42501')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('append_audit records the caller, whatever the details claim, and takes no operator or hash', async () => {
    const r = await eve.query(
      `SELECT (e).operator, (e).prev_hash, (e).seq FROM (SELECT append_audit('approval.approved', 'x',
        '{"decidedBy":"bia","operator":"ana"}', NULL) AS e) s`,
    )
    expect(r.rows[0]).toMatchObject({ operator: 'eve' })
    const head = await eve.query('SELECT seq, hash FROM audit_head')
    expect(String(head.rows[0].seq)).toBe(String(r.rows[0].seq))
    // No overload takes an operator, a seq or a hash.
    expect(await sqlstate(eve.query(`SELECT append_audit('a', 'b', '{}', NULL, 'ana')`))).toBe('42883')
    expect(await sqlstate(eve.query(`SELECT append_audit('a', 'b', '[1]', NULL)`))).toBe('22023')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('two roles appending at once still make one chain (the head is locked)', async () => {
    const bia = await psqlAs(team, 'bia')
    clients.push(bia)
    await Promise.all(
      [eve, bia].map(async (c, k) => {
        for (let i = 0; i < 10; i += 1)
          await c.query(`SELECT append_audit('note', NULL, '{"i":${k * 10 + i}}', NULL)`)
      }),
    )
    const dup = await owner.query('SELECT prev_hash FROM audit_log GROUP BY prev_hash HAVING count(*) > 1')
    expect(dup.rows).toEqual([])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('objects planted in writable schemas are not picked up by the SECURITY DEFINER functions', async () => {
    expect(await sqlstate(eve.query('CREATE TABLE public.audit_head (id int)'))).toBe('42501')
    expect(await sqlstate(eve.query('CREATE TABLE ledger.evil (id int)'))).toBe('42501')
    expect(await sqlstate(eve.query('CREATE SCHEMA evil'))).toBe('42501')
    // pg_temp is writable: a fake head and log there, first on the session's path.
    await eve.query('CREATE TEMP TABLE audit_head (id integer, seq bigint, hash text)')
    await eve.query(`INSERT INTO pg_temp.audit_head VALUES (1, 0, '${'0'.repeat(64)}')`)
    await eve.query('CREATE TEMP TABLE audit_log (LIKE ledger.audit_log)')
    // Functions in pg_temp are never found unqualified, so a fake sha256 changes no hash.
    await eve.query(
      `CREATE FUNCTION pg_temp.sha256(bytea) RETURNS bytea LANGUAGE sql AS $$ SELECT '\\x00'::bytea $$`,
    )
    await eve.query('SET search_path = pg_temp, public, ledger')
    try {
      const before = await owner.query('SELECT seq, hash FROM audit_head')
      const r = await eve.query(`SELECT * FROM ledger.append_audit('note', NULL, '{}', NULL)`)
      expect(r.rows[0]).toMatchObject({ operator: 'eve', prev_hash: before.rows[0].hash })
      expect(String(r.rows[0].seq)).toBe(String(Number(before.rows[0].seq) + 1))
      expect((await eve.query('SELECT count(*) AS n FROM pg_temp.audit_log')).rows[0].n).toBe('0')
    } finally {
      await eve.query('SET search_path = ledger, pg_temp')
    }
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('an owner who disables the append-only trigger and edits an entry is caught by verifyAuditChain', async () => {
    const seq = (await owner.query('SELECT min(seq) AS s FROM audit_log')).rows[0].s as string
    const old = (await owner.query('SELECT operator FROM audit_log WHERE seq = $1', [seq])).rows[0]
      .operator as string
    await owner.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only')
    try {
      await owner.query(`UPDATE audit_log SET operator = 'bia' WHERE seq = $1`, [seq])
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: false })
      await owner.query('UPDATE audit_log SET operator = $2 WHERE seq = $1', [seq, old])
    } finally {
      await owner.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only')
    }
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it("cannot hide someone's record: no UPDATE, the move refused, is_open derived by the database (migration 11)", async () => {
    const rec = await ana.insertSubmitting(input(), 'Ana')
    expect(
      await sqlstate(
        eve.query(`UPDATE withdrawals SET local_state = 'not_created', is_open = false WHERE local_id = $1`, [
          rec.localId,
        ]),
      ),
    ).toBe('42501')
    const write = (r: WithdrawalRecord, over: Record<string, unknown> = {}): Promise<unknown> =>
      eve.query(`SELECT write_withdrawal($1::jsonb, false, NULL, 'withdrawal.observed', '{}')`, [
        JSON.stringify({ ...(JSON.parse(recordRow(r)) as object), ...over }),
      ])
    expect(await sqlstate(write({ ...rec, localState: 'not_created' }))).toBe('DPX11')
    // The same state with is_open = false: the database derives is_open itself, the desk's value is ignored.
    const created = await ana.markCreated(rec.localId, {
      remoteId: `w-${randomUUID()}`,
      createResponse: null,
      requestId: null,
    })
    expect(await sqlstate(write(created, { is_open: false, display_status: 'sent' }))).toBe('ok')
    const row = await owner.query('SELECT is_open, display_status FROM withdrawals WHERE local_id = $1', [
      rec.localId,
    ])
    expect(row.rows[0]).toEqual({ is_open: true, display_status: 'created' })
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    // A record's local id never changes (migration 9): renaming would free it for a second payment.
    expect(
      await sqlstate(
        eve.query(`UPDATE withdrawals SET local_id = 'elsewhere' WHERE local_id = $1`, [rec.localId]),
      ),
    ).toBe('42501')
  })

  it('cannot launder a changed payment by appending its new state hash (migrations 9 and 11)', async () => {
    const rec = await ana.insertSubmitting(input(), 'Ana')
    const changed = [
      `UPDATE withdrawals SET amount_cents = 1 WHERE local_id = $1`,
      `UPDATE withdrawals SET pix_key = 'mallory@example.com' WHERE local_id = $1`,
      `UPDATE withdrawals SET request = '{"pixKey":"mallory@example.com","payoutAmountInCents":5000}' WHERE local_id = $1`,
      `UPDATE withdrawals SET amount_kind = 'deposit' WHERE local_id = $1`,
      `UPDATE withdrawals SET profile = 'other' WHERE local_id = $1`,
      `UPDATE withdrawals SET receiver_name = 'Eve' WHERE local_id = $1`,
    ]
    for (const sql of changed)
      expect([sql, await sqlstate(eve.query(sql, [rec.localId]))]).toEqual([sql, '42501'])
    // Nor may she append an entry naming the record with a hash of her choosing, nor a withdrawal.* action at all.
    const rewritten: WithdrawalRecord = { ...rec, receiverName: 'Eve' }
    expect(
      await sqlstate(
        eve.query(`SELECT append_audit('record.updated', $1, '{}', $2)`, [
          rec.localId,
          recordStateHash(rewritten),
        ]),
      ),
    ).toBe('DPX14')
    expect(
      await sqlstate(eve.query(`SELECT append_audit('withdrawal.observed', $1, '{}', NULL)`, [rec.localId])),
    ).toBe('DPX14')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it("eve's own entries naming ana's record carry no state hash; the owner's still may (a repair)", async () => {
    const rec = await ana.insertSubmitting(input(), 'Ana')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    expect(
      await sqlstate(
        eve.query(`SELECT append_audit('record.updated', $1, '{}', $2)`, [rec.localId, 'ab'.repeat(32)]),
      ),
    ).toBe('DPX14')
    await eve.query(`SELECT append_audit('record.note', $1, '{}', NULL)`, [rec.localId])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    await owner.query(`SELECT append_audit('record.checked', $1, '{}', $2)`, [
      rec.localId,
      recordStateHash(rec),
    ])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('cannot write another role into db_user / requested_by / decided_by / fetched_by / wave_by', async () => {
    // Records and observations: no INSERT/UPDATE at all since migration 11; the functions set the identity.
    const direct = [
      `INSERT INTO withdrawals (local_id, profile, operator, db_user, created_at, updated_at, local_state, request,
         pix_key, amount_kind, amount_cents, display_status, has_refund, is_open, search_text)
       VALUES ('${randomUUID()}', 'main', 'Eve', 'ana', 'x', 'x', 'not_created', '{}', 'k', 'payout', 500, 's', false,
         false, '')`,
      `UPDATE withdrawals SET db_user = 'ana'`,
      `INSERT INTO deposits (local_id, profile, operator, db_user, created_at, updated_at, local_state, origin,
         request, amount_cents, display_status, is_open, search_text)
       VALUES ('${randomUUID()}', 'main', 'Eve', 'ana', 'x', 'x', 'not_created', 'app', '{}', 500, 's', false, '')`,
      `UPDATE deposits SET db_user = 'ana'`,
      `INSERT INTO observations (local_id, observed_at, remote_status, applied, db_user)
       VALUES ('x', 'x', 'pending', false, 'ana')`,
      `INSERT INTO deposit_observations (local_id, observed_at, remote_status, applied, db_user)
       VALUES ('x', 'x', 'pending', false, 'ana')`,
    ]
    for (const sql of direct) expect([sql, await sqlstate(eve.query(sql))]).toEqual([sql, '42501'])
    const row = await insertWithdrawal(eve, { cents: 500, claimedUser: 'ana' })
    expect(row.rows[0].db_user).toBe('eve')
    const id = String(row.rows[0].local_id)
    await eve.query(`SELECT add_observation('withdrawal', $1, 'x', 'pending', NULL, NULL, NULL, false)`, [id])
    const obs = await owner.query('SELECT db_user FROM observations WHERE local_id = $1', [id])
    expect(obs.rows[0].db_user).toBe('eve')
    expect(await sqlstate(eve.query(`UPDATE observations SET db_user = 'ana'`))).toBe('42501')
    const dep = `dep-${randomUUID()}`
    await eve.query(`SELECT write_deposit($1::json, true, NULL, 'deposit.submitting', '{}')`, [
      JSON.stringify({
        local_id: dep,
        profile: 'main',
        operator: 'Eve',
        db_user: 'ana',
        created_at: 'x',
        updated_at: 'x',
        local_state: 'submitting',
        origin: 'app',
        // The body's amount is the row's (migration 15).
        request: { amountInCents: 500 },
        amount_cents: 500,
        flags: [],
        search_text: '',
      }),
    ])
    await eve.query(`SELECT add_observation('deposit', $1, 'x', 'pending', NULL, NULL, NULL, false)`, [dep])
    const d = await owner.query(
      `SELECT (SELECT db_user FROM deposits WHERE local_id = $1) AS d,
              (SELECT db_user FROM deposit_observations WHERE local_id = $1) AS o`,
      [dep],
    )
    expect(d.rows[0]).toEqual({ d: 'eve', o: 'eve' })

    const denied = [
      `INSERT INTO approvals (local_id, profile, request, pix_key, amount_kind, amount_cents, requested_by)
         VALUES ('${randomUUID()}', 'main', '{}', 'k', 'payout', 500, 'ana')`,
      `INSERT INTO approvals (local_id, profile, request, pix_key, amount_kind, amount_cents, state, decided_by)
         VALUES ('${randomUUID()}', 'main', '{}', 'k', 'payout', 500, 'approved', 'bia')`,
      `UPDATE approvals SET requested_by = 'bia'`,
      `UPDATE approvals SET decided_by = 'bia'`,
      `INSERT INTO payees (name, tax_number, pix_keys, search_text, created_by) VALUES ('n', '1', '[]', '', 'ana')`,
      `UPDATE payees SET updated_by = 'ana'`,
      `UPDATE payees SET removed_by = 'ana'`,
      `INSERT INTO receipts (local_id, url, noticed_by) VALUES ('${id}', 'https://x', 'ana')`,
      `UPDATE receipts SET fetched_by = 'ana'`,
      `INSERT INTO runs (run_id, profile, operator, name, row_count, db_user) VALUES ('r', 'p', 'o', 'n', 1, 'ana')`,
      `UPDATE runs SET approved_by = 'bia'`,
      `UPDATE runs SET approval_requested_by = 'bia'`,
      `UPDATE runs SET wave_by = 'bia'`,
      `UPDATE run_rows SET updated_by = 'ana'`,
      `INSERT INTO run_waves (run_id, wave, planned, db_user) VALUES ('r', 1, 1, 'ana')`,
      `UPDATE team_settings SET updated_by = 'ana'`,
    ]
    for (const sql of denied) expect([sql, await sqlstate(eve.query(sql))]).toEqual([sql, '42501'])
    // The rows eve wrote carry her name and an audit entry the database wrote: the chain checks.
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('cannot delete, truncate or change team settings and rate buckets', async () => {
    for (const t of APPEND_ONLY) {
      expect([t, await sqlstate(eve.query(`DELETE FROM ${t}`))]).toEqual([t, '42501'])
      expect([t, await sqlstate(eve.query(`TRUNCATE ${t} CASCADE`))]).toEqual([t, '42501'])
    }
    expect(await sqlstate(eve.query('UPDATE team_settings SET approval_above_cents = NULL'))).toBe('42501')
    expect(await sqlstate(eve.query('UPDATE rate_buckets SET per_minute = 0.001'))).toBe('42501')
    expect(await sqlstate(eve.query(`INSERT INTO rate_buckets VALUES ('x', 1, 1, now())`))).toBe('42501')
    // USAGE on the sequences gives nextval, not setval: ids cannot be wound back onto existing rows.
    expect(await sqlstate(eve.query(`SELECT setval('withdrawals_id_seq', 1)`))).toBe('42501')
  })

  it('a careless owner cannot delete or truncate either (TRUNCATE fires no row trigger: migration 9)', async () => {
    for (const t of APPEND_ONLY) {
      expect([t, await sqlstate(owner.query(`TRUNCATE ${t} CASCADE`))]).toEqual([t, '42501'])
    }
    // Tables with rows by now (a row trigger fires only on a row).
    for (const t of [
      'audit_log',
      'audit_head',
      'withdrawals',
      'observations',
      'deposits',
      'deposit_observations',
    ]) {
      expect([t, await sqlstate(owner.query(`DELETE FROM ${t}`))]).toEqual([t, '42501'])
    }
    expect(await sqlstate(owner.query(`UPDATE audit_log SET operator = 'x'`))).toBe('42501')
    expect(Number((await owner.query('SELECT count(*) AS n FROM audit_log')).rows[0].n)).toBeGreaterThan(0)
  })

  it('cannot become another role, and SET ROLE to the group changes no identity written', async () => {
    expect(await sqlstate(eve.query('SET ROLE ana'))).toBe('42501')
    expect(await sqlstate(eve.query('SET ROLE depix_owner'))).toBe('42501')
    expect(await sqlstate(eve.query('SET SESSION AUTHORIZATION ana'))).toBe('42501')
    await eve.query('SET ROLE depix_analysts')
    try {
      const r = await eve.query(`SELECT (append_audit('note', NULL, '{}', NULL)).operator`)
      expect(r.rows[0].operator).toBe('eve')
      const w = await insertWithdrawal(eve, { cents: 300 })
      expect(w.rows[0].db_user).toBe('eve')
    } finally {
      await eve.query('RESET ROLE')
    }
  })
})
