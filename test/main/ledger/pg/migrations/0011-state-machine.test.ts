/**
 * Migration 11 on a team ledger that already has a history: a database at migrations 1–10, written the way the app
 * wrote it before (rows by INSERT, audit entries by `append_audit` with the desk's state hash), holding payments and
 * top-ups in every local state, observations, refunds, approvals pending / approved / rejected and runs at every
 * stage. Then 11 is applied: no row lost or changed, the chain checks (with the database's own state hash agreeing
 * with every record's last audited one), and the desks keep working on the old rows.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type Ledger, type NewWithdrawal } from '../../../../../src/main/ledger/sqlite'
import { migratePg, type PgLedgerStore } from '../../../../../src/main/ledger/engines'
import { DEPOSIT_COLUMNS, depositValues } from '../../../../../src/main/ledger/pg/deposit-rows'
import { COLUMNS, recordValues } from '../../../../../src/main/ledger/pg/rows'
import { PG_LATEST_VERSION, PG_MIGRATIONS } from '../../../../../src/main/ledger/pg/schema'
import { canonicalJson } from '../../../../../src/main/ledger/model/canonical-json'
import { recordStateHash } from '../../../../../src/main/ledger/model/state-hash'
import type { DepositRecord } from '../../../../../src/shared/deposit-record'
import type { WithdrawalRecord } from '../../../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../../../support/postgres'
import { psqlAs } from '../../adversary'
import { startTeam, type Team } from '../../team'

announceSkip('migration 11 on an existing team ledger (postgres)')

const TABLES = [
  'withdrawals',
  'observations',
  'deposits',
  'deposit_observations',
  'approvals',
  'runs',
  'run_rows',
  'run_waves',
  'audit_log',
  'audit_head',
  'payees',
  'team_settings',
]

const ADDED: Record<string, string[]> = { approvals: ['kind', 'depix_address'], deposits: ['approval_id'] }

const payment = (cents = 5_000): NewWithdrawal => {
  const pixKey = `${randomUUID()}@example.com`
  return {
    localId: randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: cents },
    pixKey,
    amountKind: 'payout',
    amountCents: cents,
  }
}

const placeholders = (n: number, from = 1): string =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ')

/** The app's write of before migration 11: the row, then an entry carrying the desk's state hash. */
async function oldWrite(c: pg.Client, r: WithdrawalRecord, desk: Ledger): Promise<void> {
  await c.query(`INSERT INTO withdrawals (${COLUMNS.join(', ')}) VALUES (${placeholders(COLUMNS.length)})`, [
    ...recordValues(r),
  ])
  for (const o of desk.observations(r.localId)) {
    await c.query(
      `INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        r.localId,
        o.observedAt,
        o.remoteStatus,
        o.body === null ? null : JSON.stringify(o.body),
        o.requestId,
        o.nonce,
        o.applied,
      ],
    )
  }
  await c.query('SELECT append_audit($1, $2, $3, $4)', [
    'withdrawal.observed',
    r.localId,
    '{}',
    recordStateHash(r),
  ])
}

async function oldWriteDeposit(c: pg.Client, d: DepositRecord, desk: Ledger): Promise<void> {
  await c.query(
    `INSERT INTO deposits (${DEPOSIT_COLUMNS.join(', ')}) VALUES (${placeholders(DEPOSIT_COLUMNS.length)})`,
    depositValues(d),
  )
  for (const o of desk.deposits.observations(d.localId)) {
    await c.query(
      `INSERT INTO deposit_observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        d.localId,
        o.observedAt,
        o.remoteStatus,
        o.body === null ? null : JSON.stringify(o.body),
        o.requestId,
        o.nonce,
        o.applied,
      ],
    )
  }
  await c.query('SELECT append_audit($1, $2, $3, $4)', [
    'deposit.observed',
    d.localId,
    '{}',
    recordStateHash(d),
  ])
}

/** An approval asked for and decided as the app did before migration 11: straight INSERT / UPDATE. */
async function oldApproval(c: pg.Client, localId: string, cents: number): Promise<string> {
  const pixKey = 'alvo@example.com'
  const r = await c.query(
    `INSERT INTO approvals (local_id, profile, request, pix_key, amount_kind, amount_cents)
     VALUES ($1, 'main', $2, $3, 'payout', $4) RETURNING id`,
    [localId, JSON.stringify({ pixKey, payoutAmountInCents: cents }), pixKey, cents],
  )
  return String((r.rows[0] as { id: string }).id)
}

async function snapshot(owner: pg.Client): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const t of TABLES) {
    // Columns a later migration added (15: an approval's kind and delivery address, a top-up's approval) are
    // compared apart: the rows of before keep their defaults.
    const added = ADDED[t]?.map((c) => ` - '${c}'`).join('') ?? ''
    const r = await owner.query(`SELECT to_jsonb(x)${added} AS j FROM ${t} x`)
    out[t] = r.rows.map((row) => canonicalJson(row.j)).sort()
  }
  return out
}

describe.skipIf(PG_SKIP_REASON !== null)('migration 11 on an existing team ledger', () => {
  let team: Team
  let owner: pg.Client
  let ana: pg.Client
  let bia: pg.Client
  let dir: string
  let desk: Ledger
  const ids: Record<string, string> = {}
  let before: Record<string, string[]>

  beforeAll(async () => {
    // Migrations 1–10 only: the team's database as it is today.
    team = await startTeam(
      {},
      PG_MIGRATIONS.filter((m) => m.version <= 10),
    )
    owner = await team.owner()
    ana = await psqlAs(team, 'ana')
    bia = await psqlAs(team, 'bia')
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mig11-'))
    desk = openLedger(path.join(dir, 'desk.sqlite'))

    // Payments in every local state, with observations, a refund, funding and flags.
    const w = (key: string, rec: WithdrawalRecord): void => {
      ids[key] = rec.localId
    }
    w('submitting', desk.insertSubmitting(payment(), 'Ana'))
    const rej = desk.insertSubmitting(payment(), 'Ana')
    w(
      'rejected',
      desk.markRejected(rej.localId, {
        kind: 'business',
        status: 422,
        messageCode: 'x',
        denialCode: null,
        requestId: null,
      }),
    )
    const unk = desk.insertSubmitting(payment(), 'Ana')
    w('outcome_unknown', desk.markOutcomeUnknown(unk.localId, null, 'timeout'))
    const nc = desk.insertSubmitting(payment(), 'Ana')
    desk.markOutcomeUnknown(nc.localId, null, 'timeout')
    w('not_created', desk.resolveUnknown(nc.localId, { notCreated: true, note: 'não criado' }, 'Ana'))
    const created = (status: string, body: Record<string, unknown>): WithdrawalRecord => {
      const r = desk.insertSubmitting(payment(), 'Ana')
      desk.markCreated(r.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: { depositAddress: 'lq1ana', expiration: '2026-12-01T00:00:00Z' },
        requestId: 'req',
        depositAddress: 'lq1ana',
        depositAmountCents: 5_100,
        payoutAmountCents: 5_000,
        status: 'unsent',
      })
      return desk.recordObservation(r.localId, { status, body }).record
    }
    w('unsent', created('unsent', { status: 'unsent', n: 1 }))
    w('sent', created('sent', { status: 'sent', receiverName: 'Fornecedor Ção' }))
    w(
      'refunded',
      created('refunded', { status: 'refunded', refund: { txid: 'ab'.repeat(32), amount: 1.5e-7 } }),
    )
    const funded = created('sending', { status: 'sending' })
    desk.markFunded(funded.localId, { txId: 'tx-fund' }, 'Ana')
    w('funded', desk.setFlags(funded.localId, ['deposit_address_changed'], 'Ana'))

    // Top-ups: submitting, created with a QR, delivered, expired.
    const dep = (key: string, status: string | null): void => {
      const d = desk.deposits.insertSubmitting(
        { profile: 'main', request: { amountInCents: 2_000, depixAddress: 'lq1treasury' } },
        'Ana',
      )
      ids[key] = d.localId
      if (status === null) return
      const remoteId = `q-${randomUUID()}`
      desk.deposits.markCreated(d.localId, {
        remoteId,
        createResponse: { id: remoteId, qrCopyPaste: '00020126pix' },
        requestId: null,
        status: 'pending',
      })
      if (status !== 'pending')
        desk.deposits.recordObservation(d.localId, { status, body: { blockchainTxID: 'tx' } })
    }
    dep('dep_submitting', null)
    dep('dep_pending', 'pending')
    dep('dep_sent', 'depix_sent')
    dep('dep_expired', 'expired')

    for (const rec of desk.iterate({ sort: { field: 'createdAt', dir: 'asc' } }))
      await oldWrite(ana, rec, desk)
    for (const d of desk.deposits.iterate({ sort: { field: 'createdAt', dir: 'asc' } }))
      await oldWriteDeposit(ana, d, desk)

    // Approvals: pending, approved, rejected.
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    ids.approval_pending = randomUUID()
    await oldApproval(ana, ids.approval_pending, 50_000)
    ids.approval_approved = randomUUID()
    const ok = await oldApproval(ana, ids.approval_approved, 60_000)
    await bia.query(`UPDATE approvals SET state = 'approved' WHERE id = $1`, [ok])
    ids.approval_rejected = randomUUID()
    const no = await oldApproval(ana, ids.approval_rejected, 70_000)
    await bia.query(`UPDATE approvals SET state = 'rejected', decision_note = 'não' WHERE id = $1`, [no])

    // Runs: a draft, one asked for approval, one approved and sending (a row in flight, one dropped).
    const draft = (cents: number): string =>
      JSON.stringify({ pixKey: 'alvo@example.com', amount: { kind: 'payout', cents }, refundAddress: 'x' })
    const run = async (rows: number[]): Promise<string> => {
      const runId = randomUUID()
      await ana.query(
        `INSERT INTO runs (run_id, profile, operator, name, row_count) VALUES ($1, 'main', 'Ana', 'lote', $2)`,
        [runId, rows.length],
      )
      for (const [i, v] of rows.entries())
        await ana.query(
          `INSERT INTO run_rows (run_id, idx, line, draft, payee) VALUES ($1, $2, $3, $4, '{}')`,
          [runId, i, i + 2, draft(v)],
        )
      return runId
    }
    ids.run_draft = await run([1_000, 2_000])
    ids.run_asked = await run([30_000])
    await ana.query(`UPDATE runs SET approval_requested_hash = $2 WHERE run_id = $1`, [
      ids.run_asked,
      'ab'.repeat(32),
    ])
    ids.run_sending = await run([30_000, 500])
    await ana.query(`UPDATE run_rows SET decision = 'drop' WHERE run_id = $1 AND idx = 1`, [ids.run_sending])
    await ana.query(`UPDATE runs SET approval_requested_hash = $2 WHERE run_id = $1`, [
      ids.run_sending,
      'cd'.repeat(32),
    ])
    await bia.query(`UPDATE runs SET state = 'approved', approved_hash = $2 WHERE run_id = $1`, [
      ids.run_sending,
      'cd'.repeat(32),
    ])
    await ana.query(`UPDATE runs SET state = 'creating' WHERE run_id = $1`, [ids.run_sending])
    await ana.query(`INSERT INTO run_waves (run_id, wave, planned) VALUES ($1, 1, 1)`, [ids.run_sending])
    await ana.query(`UPDATE run_rows SET state = 'dropped' WHERE run_id = $1 AND idx = 1`, [ids.run_sending])
    await ana.query(`UPDATE run_rows SET state = 'queued', wave = 1 WHERE run_id = $1 AND idx = 0`, [
      ids.run_sending,
    ])
    await ana.query(`UPDATE run_rows SET state = 'in_flight', local_id = $2 WHERE run_id = $1 AND idx = 0`, [
      ids.run_sending,
      randomUUID(),
    ])
    before = await snapshot(owner)
  }, 180_000)

  afterAll(async () => {
    for (const c of [ana, bia]) await c?.end().catch(() => undefined)
    desk?.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
    await team?.stop()
  })

  it('applies 11 without losing or changing a row, and the chain still checks', async () => {
    expect(before.withdrawals).toHaveLength(8)
    expect(before.deposits).toHaveLength(4)
    expect(await migratePg(owner)).toBe(PG_LATEST_VERSION)
    expect(await snapshot(owner)).toEqual(before)
    const added = await owner.query(`SELECT (SELECT count(*) FROM approvals WHERE kind <> 'withdrawal'
      OR depix_address IS NOT NULL) + (SELECT count(*) FROM deposits WHERE approval_id IS NOT NULL) AS n`)
    expect(added.rows[0]).toEqual({ n: '0' })
    const store: PgLedgerStore = await team.desk('ana')
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
    // The database's own state hash agrees with every record's last audited one (written by the desks before).
    const agree = await owner.query(`
      SELECT count(*) FILTER (WHERE h = last) AS same, count(*) AS n FROM (
        SELECT state_hash(withdrawal_state(w)) AS h, (SELECT a.state_hash FROM audit_log a WHERE a.subject = w.local_id
          AND a.state_hash IS NOT NULL ORDER BY a.seq DESC LIMIT 1) AS last FROM withdrawals w
        UNION ALL
        SELECT state_hash(deposit_state(d)), (SELECT a.state_hash FROM audit_log a WHERE a.subject = d.local_id
          AND a.state_hash IS NOT NULL ORDER BY a.seq DESC LIMIT 1) FROM deposits d) x`)
    expect(agree.rows[0]).toEqual({ same: '12', n: '12' })
  })

  it('the desks keep working on the rows written before, and the old ways in are closed', async () => {
    const store = await team.desk('ana')
    // ana's own interrupted submission is recovered; her unknown outcome resolved; an old payment observed.
    await store.markCreated(ids.submitting!, {
      remoteId: `w-${randomUUID()}`,
      createResponse: null,
      requestId: null,
    })
    await store.resolveUnknown(ids.outcome_unknown!, { notCreated: true, note: 'não foi criado' }, 'Ana')
    const sent = await store.recordObservation(ids.unsent!, { status: 'sent', body: { status: 'sent' } })
    expect(sent.record.remoteStatus).toBe('sent')
    const refunded = await store.recordObservation(ids.refunded!, {
      status: 'sent',
      body: { status: 'sent' },
    })
    expect(refunded.record.remoteStatus).toBe('refunded')
    await store.markFunded(ids.funded!, { txId: 'tx-fund-2' }, 'Ana')
    await store.deposits.markCreated(ids.dep_submitting!, {
      remoteId: `q-${randomUUID()}`,
      createResponse: { qrCopyPaste: '00020126new' },
      requestId: null,
      status: 'pending',
    })
    await store.deposits.recordObservation(ids.dep_pending!, { status: 'approved', body: {} })
    // The approved request still pays its payment, once.
    const approved = await owner.query(`SELECT * FROM approvals WHERE local_id = $1`, [ids.approval_approved])
    const a = approved.rows[0] as { id: string; request: { pixKey: string }; pix_key: string }
    await store.insertSubmitting(
      {
        localId: ids.approval_approved!,
        profile: 'main',
        request: a.request,
        pixKey: a.pix_key,
        amountKind: 'payout',
        amountCents: 60_000,
      },
      'Ana',
      { approvalId: a.id },
    )
    // The approval still pending is decided by another analyst through the function now.
    const biaStore = await team.desk('bia')
    const pendingId = (
      await owner.query('SELECT id FROM approvals WHERE local_id = $1', [ids.approval_pending])
    ).rows[0].id as string
    await expect(biaStore.approve(pendingId)).resolves.toMatchObject({ state: 'approved', decidedBy: 'bia' })
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true })
    // The old ways in are closed, and the old dropped row stays dropped.
    expect(
      await ana
        .query(`UPDATE approvals SET state = 'approved' WHERE local_id = $1`, [ids.approval_rejected])
        .catch((e: { code?: string }) => e.code),
    ).toBe('42501')
    expect(
      await ana
        .query(`UPDATE withdrawals SET deposit_address = 'x' WHERE local_id = $1`, [ids.unsent])
        .catch((e: { code?: string }) => e.code),
    ).toBe('42501')
    expect(
      await ana
        .query(`UPDATE run_rows SET state = 'queued' WHERE run_id = $1 AND idx = 1`, [ids.run_sending])
        .catch((e: { code?: string }) => e.code),
    ).toBe('42501') // since migration 16 a run row is written only through run_change_row
  })
})
