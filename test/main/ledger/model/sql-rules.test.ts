/**
 * The team database's state machine (migration 11 and later: `record_moves`, `status_ranks`, `status_terminal`,
 * `status_move_ok`) against the rules of model/ and shared/: the local-state moves the planners allow, the fields
 * they never change (field-rules.ts), the status order. A rule changed on one side only fails here. The database
 * is a real cluster with every migration applied, read as its owner.
 *
 * The planners are also run over records in every local state: none of them may write what the database would
 * refuse (a frozen field changed, a set-once field rewritten, a kept field cleared).
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DepositRecord } from '../../../../src/shared/deposit-record'
import {
  DEPOSIT_STATUSES,
  depositStatusRank,
  decideDepositStatus,
  isTerminalDepositStatus,
} from '../../../../src/shared/deposit-status'
import type { LocalState, WithdrawalRecord } from '../../../../src/shared/withdrawal-record'
import {
  decideStatus,
  isTerminalStatus,
  KNOWN_STATUSES,
  statusRank,
} from '../../../../src/shared/withdrawal-status'
import {
  columnOf,
  DEPOSIT_FIELDS,
  WITHDRAWAL_FIELDS,
  type FieldRules,
} from '../../../../src/main/ledger/model/field-rules'
import {
  blank,
  DEPOSIT_KIND,
  submittingRecord,
  WITHDRAWAL_KIND,
} from '../../../../src/main/ledger/model/kinds'
import {
  assertTransition,
  planFailed,
  planFlags,
  planFunded,
  planInterrupted,
  planJournaledCreate,
  planResolved,
  type KindRules,
  type LinkedRecord,
} from '../../../../src/main/ledger/model/transitions'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

const STATES: LocalState[] = ['submitting', 'created', 'rejected', 'outcome_unknown', 'not_created']
const now = (): string => '2030-01-02T03:04:05.000Z'
const answer = {
  remoteId: 'r-1',
  createResponse: { id: 'r-1', qrCopyPaste: '00020126PIX', valueInCents: 5_000 },
  requestId: 'req-1',
  depositAddress: 'lq1qqaddress',
  depositAmountCents: 12_845,
  payoutAmountCents: 12_345,
  expiration: '2030-01-01T00:00:00.000Z',
}

const withdrawalIn = (state: LocalState): WithdrawalRecord => ({
  ...submittingRecord(
    {
      profile: 'main',
      request: { pixKey: 'k@example.com', payoutAmountInCents: 12_345 },
      pixKey: 'k@example.com',
      amountKind: 'payout',
      amountCents: 12_345,
      references: { invoice: 'NF-1' },
    },
    'w-1',
    'Ana',
    '2030-01-01T00:00:00.000Z',
  ),
  localState: state,
  remoteId: state === 'created' ? 'r-0' : null,
  remoteStatus: state === 'created' ? 'sent' : null,
  createResponse: state === 'created' ? { id: 'r-0' } : null,
  depositAddress: state === 'created' ? 'lq1qqfirst' : null,
  fundedAt: state === 'created' ? '2030-01-01T01:00:00.000Z' : null,
})

const depositIn = (state: LocalState): DepositRecord => ({
  ...blank({
    localId: 'dep-1',
    profile: 'main',
    operator: 'Ana',
    now: '2030-01-01T00:00:00.000Z',
    origin: 'app',
    request: { amountInCents: 5_000 },
    amountCents: 5_000,
    depixAddress: 'lq1qqtreasury',
    flags: [],
  }),
  localState: state,
  remoteId: state === 'created' ? 'r-0' : null,
  remoteStatus: state === 'created' ? 'pending' : null,
  createResponse: state === 'created' ? { id: 'r-0' } : null,
  qrCopyPaste: state === 'created' ? '0002FIRST' : null,
})

type Move = { from: LocalState; to: LocalState; prev: LinkedRecord; next: LinkedRecord }

/** Every plan the planners make from a record in each local state (refusals make none). */
function planned<R extends LinkedRecord>(kind: KindRules<R>, recordIn: (s: LocalState) => R): Move[] {
  const moves: Move[] = []
  const tryPlan = (prev: R, f: () => R | null | undefined): void => {
    try {
      const next = f()
      if (next) moves.push({ from: prev.localState, to: next.localState, prev, next })
    } catch (e) {
      if (!(e instanceof Error && 'code' in e)) throw e
    }
  }
  for (const s of STATES) {
    const rec = recordIn(s)
    tryPlan(rec, () => planFailed(kind, rec, 'rejected', null, {}, now).next)
    tryPlan(rec, () => planFailed(kind, rec, 'outcome_unknown', null, {}, now).next)
    if (s === 'submitting') tryPlan(rec, () => planInterrupted(kind, rec, now).next)
    tryPlan(rec, () => planResolved(kind, rec, 'r-9', null, 'Bia', now).next)
    tryPlan(rec, () => planResolved(kind, rec, null, null, 'Bia', now).next)
    tryPlan(rec, () => {
      assertTransition(rec, 'submitting', 'created')
      return kind.created(rec, answer, now())
    })
    tryPlan(rec, () => (planJournaledCreate(rec, 'r-1') === null ? null : kind.created(rec, answer, now())))
    tryPlan(rec, () => planFlags(kind, rec, ['x'], 'Bia', now)?.next)
    if (kind.action === 'withdrawal')
      tryPlan(
        rec,
        () => planFunded(rec as unknown as WithdrawalRecord, 'tx-9', 'Bia', now)?.next as unknown as R,
      )
  }
  return moves
}

/** What the database's record_move_refusal says of the guarded fields, on the model's side. */
function fieldRefusal<R>(rules: FieldRules<R>, prev: R, next: R): string | null {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
  for (const f of rules.frozen) if (!same(prev[f], next[f])) return `${String(f)} never changes`
  for (const f of rules.setOnce)
    if (prev[f] !== null && prev[f] !== undefined && !same(prev[f], next[f]))
      return `${String(f)} is set once`
  for (const f of rules.kept)
    if (prev[f] !== null && prev[f] !== undefined && (next[f] === null || next[f] === undefined))
      return `${String(f)} is kept`
  return null
}

describe('the planners of model/ never write what the team database refuses', () => {
  it.each([
    ['withdrawal', () => planned(WITHDRAWAL_KIND, withdrawalIn), WITHDRAWAL_FIELDS],
    ['deposit', () => planned(DEPOSIT_KIND, depositIn), DEPOSIT_FIELDS],
  ] as const)('%s', (_k, moves, rules) => {
    const all = moves()
    // Every planner ran on some state: the checks below are over real plans.
    expect(all.length).toBeGreaterThanOrEqual(8)
    for (const m of all) expect(fieldRefusal(rules as FieldRules<LinkedRecord>, m.prev, m.next)).toBeNull()
  })
})

announceSkip('the team database state machine against model/ (postgres)')
describe.skipIf(PG_SKIP_REASON)('the team database state machine is the one of model/', () => {
  let team: Team
  let c: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    c = await team.owner()
  }, 120_000)
  afterAll(async () => team?.stop())

  const sqlRules = async (kind: string, rule: string): Promise<string[]> =>
    (
      await c.query('SELECT item FROM record_moves WHERE kind = $1 AND rule = $2 ORDER BY item', [kind, rule])
    ).rows.map((r: { item: string }) => r.item)

  it.each([
    ['withdrawal', WITHDRAWAL_FIELDS],
    ['deposit', DEPOSIT_FIELDS],
  ] as const)('%s: the frozen, set-once and kept fields', async (kind, rules) => {
    const cols = (fs: readonly string[]): string[] => fs.map(columnOf).sort()
    expect(await sqlRules(kind, 'frozen')).toEqual(cols(rules.frozen as readonly string[]))
    expect(await sqlRules(kind, 'set_once')).toEqual(cols(rules.setOnce as readonly string[]))
    expect(await sqlRules(kind, 'kept')).toEqual(cols(rules.kept as readonly string[]))
    // The columns exist: a renamed field would otherwise compare two lists of nothing.
    const table = kind === 'withdrawal' ? 'withdrawals' : 'deposits'
    const existing = (
      await c.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'ledger' AND table_name = $1",
        [table],
      )
    ).rows.map((r: { column_name: string }) => r.column_name)
    for (const col of await sqlRules(kind, 'frozen')) expect(existing).toContain(col)
  })

  it.each([
    ['withdrawal', () => planned(WITHDRAWAL_KIND, withdrawalIn)],
    ['deposit', () => planned(DEPOSIT_KIND, depositIn)],
  ] as const)('%s: the local-state moves are the planners’ moves', async (kind, moves) => {
    const fromPlanners = [
      ...new Set(
        moves()
          .filter((m) => m.from !== m.to)
          .map((m) => `${m.from}>${m.to}`),
      ),
    ].sort()
    expect(fromPlanners).toEqual([
      'outcome_unknown>created',
      'outcome_unknown>not_created',
      'submitting>created',
      'submitting>outcome_unknown',
      'submitting>rejected',
    ])
    expect(await sqlRules(kind, 'local')).toEqual(fromPlanners)
  })

  it.each([
    ['withdrawal', KNOWN_STATUSES as readonly string[], statusRank],
    ['deposit', DEPOSIT_STATUSES as readonly string[], depositStatusRank],
  ] as const)('%s: the status order', async (kind, statuses, rank) => {
    const rows = (
      await c.query('SELECT status, rank FROM status_ranks WHERE kind = $1 ORDER BY status', [kind])
    ).rows.map((r: { status: string; rank: string }) => [r.status, Number(r.rank)])
    expect(rows).toEqual([...statuses].sort().map((s) => [s, rank(s)]))
  })

  it.each([
    ['withdrawal', KNOWN_STATUSES as readonly string[]],
    ['deposit', DEPOSIT_STATUSES as readonly string[]],
  ] as const)('%s: terminal statuses and forward-only moves, pair by pair', async (kind, statuses) => {
    const all = [...statuses, 'Some_New-Status', ' SENT ']
    const terminal = (s: string, refund: boolean): boolean =>
      kind === 'withdrawal' ? isTerminalStatus(s, refund) : isTerminalDepositStatus(s)
    const decide = kind === 'withdrawal' ? decideStatus : decideDepositStatus
    const cases: Array<[string, boolean, string, boolean]> = []
    for (const a of all)
      for (const b of all) for (const ra of [false, true]) cases.push([a, ra, b, false], [a, ra, b, true])
    const r = await c.query(
      `SELECT status_terminal($1, status_norm(a), ra) AS t,
              status_move_ok($1, a, ra, b, rb) AS ok
       FROM unnest($2::text[], $3::boolean[], $4::text[], $5::boolean[]) AS x(a, ra, b, rb)`,
      [kind, cases.map((x) => x[0]), cases.map((x) => x[1]), cases.map((x) => x[2]), cases.map((x) => x[3])],
    )
    const mismatches = cases.flatMap(([a, ra, b, rb], i) => {
      const row = r.rows[i] as { t: boolean; ok: boolean }
      // The database cannot know which observation came later: it allows what a later one would be allowed.
      const ts = decide(
        { status: a, hasRefund: ra, at: '2030-01-01T00:00:00.000Z' },
        { status: b, hasRefund: rb, at: '2030-01-01T00:00:01.000Z' },
      ).replace
      const out: string[] = []
      if (row.ok !== ts) out.push(`move ${a}(${ra}) -> ${b}(${rb}): sql ${row.ok}, model ${ts}`)
      if (row.t !== terminal(a, ra)) out.push(`terminal ${a}(${ra}): sql ${row.t}, model ${terminal(a, ra)}`)
      return out
    })
    expect(mismatches).toEqual([])
    expect(cases.length).toBeGreaterThan(100)
  })
})
