/**
 * Four-eyes approval (PostgreSQL only). A payment above the team's threshold is first a request (the exact body
 * that will be POSTed); another analyst approves or rejects it; only then can a desk insert it as `submitting`
 * with the approval's id. The database decides who is who (session_user), refuses a self-decision and audits
 * every request and decision itself (schema.ts); here we only send the statements and map the refusals.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import type { RecordKindId } from '../../../shared/record-kinds'
import { LedgerError } from '../model/errors'
import type { NewWithdrawal } from '../model/inputs'
import { newWithdrawalSchema } from '../model/inputs'
import { mapPgError } from '../team-errors'
import { withTx } from './tx'

export const APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const

export interface Approval {
  id: string
  /** Of a payment (POST /withdraw) or of a top-up (POST /deposit, migration 15). */
  kind: RecordKindId
  localId: string
  profile: string
  request: Record<string, unknown>
  /** A payment's Pix key; '' for a top-up (it pays no key). */
  pixKey: string
  /** A payment's amount kind; a top-up's amount is the Pix deposit it asks for ('deposit'). */
  amountKind: 'deposit' | 'payout'
  amountCents: number
  /** A top-up's DePix delivery address (null for a payment), shown to the approver. */
  depixAddress: string | null
  /** Whether that address is one of the team's registered treasury addresses. */
  depixRegistered: boolean
  note: string | null
  /** What the payment is for and the payee-book entry, as requested: the sent record carries them. */
  references?: NewWithdrawal['references']
  expectedPayee?: NewWithdrawal['expectedPayee']
  requestedBy: string
  requestedAt: string
  state: (typeof APPROVAL_STATES)[number]
  decidedBy: string | null
  decidedAt: string | null
  decisionNote: string | null
  /** Where a failed payout's deposit goes back (the request's refundAddress), shown to the approver. */
  refundAddress: string | null
  /** Whether that address is one of the team's registered treasury addresses (migration 11). */
  refundRegistered: boolean
}

export interface ApprovalsApi {
  /** Cents above which a payment needs approval (0: every payment); null: approval is off. */
  approvalThreshold(): Promise<number | null>
  /** Owner role only (analysts lack the privilege and get permission_denied). */
  setApprovalThreshold(cents: number | null): Promise<void>
  /**
   * Whether a payment of this amount, refunding to this address, must be approved before it is sent: above the
   * threshold, or (once the team registered treasury addresses) refunding to an address not registered.
   */
  needsApproval(amountCents: number, refundAddress?: string | null): Promise<boolean>
  requestApproval(input: NewWithdrawal, note?: string): Promise<Approval>
  /**
   * Whether a top-up of this amount to this address must be approved first (migration 15's one rule): above the
   * threshold, or (once the team registered treasury addresses) delivered to an address not registered.
   */
  topUpNeedsApproval(amountCents: number, depixAddress: string): Promise<boolean>
  /** Asks for a top-up's approval: its local id, profile and the exact body that will be POSTed to /deposit. */
  requestTopUpApproval(input: NewTopUpApproval, note?: string): Promise<Approval>
  approve(id: string, note?: string): Promise<Approval>
  reject(id: string, note: string): Promise<Approval>
  getApproval(id: string): Promise<Approval | undefined>
  /** Oldest first: the approvals queue. */
  pendingApprovals(): Promise<Approval[]>
  /** Oldest first: pending ones and approved ones whose payment was not sent yet (no record with their id). */
  openApprovals(): Promise<Approval[]>
  /** Whether the approval's payment or top-up was sent (its record exists). */
  approvalSent(a: Pick<Approval, 'localId' | 'kind'>): Promise<boolean>
}

export const newTopUpApprovalSchema = z.object({
  localId: z.string().min(1).max(100),
  profile: z.string().min(1),
  request: z.looseObject({ amountInCents: z.number().int().positive(), depixAddress: z.string().min(1) }),
})
export type NewTopUpApproval = z.infer<typeof newTopUpApprovalSchema>

const noteSchema = z.string().max(500)
const idSchema = z.uuid()

/** `{ [key]: value }` when the column holds a valid value, else nothing (a row edited by hand loses it). */
function parsedOr<K extends string, T>(
  key: K,
  schema: z.ZodType<T>,
  v: unknown,
): Partial<Record<K, NonNullable<T>>> {
  if (v === null || v === undefined) return {}
  const r = schema.safeParse(v)
  return r.success && r.data !== undefined ? ({ [key]: r.data } as Partial<Record<K, NonNullable<T>>>) : {}
}

function rowToApproval(r: Record<string, unknown>): Approval {
  return {
    id: String(r.id),
    kind: r.kind === 'deposit' ? 'deposit' : 'withdrawal',
    localId: String(r.local_id),
    profile: String(r.profile),
    request: (r.request ?? {}) as Record<string, unknown>,
    pixKey: typeof r.pix_key === 'string' ? r.pix_key : '',
    amountKind: r.amount_kind === 'payout' ? 'payout' : 'deposit',
    amountCents: Number(r.amount_cents),
    depixAddress: typeof r.depix_address === 'string' ? r.depix_address : null,
    depixRegistered: r.depix_registered === true,
    note: typeof r.note === 'string' ? r.note : null,
    ...parsedOr('references', newWithdrawalSchema.shape.references, r.refs),
    ...parsedOr('expectedPayee', newWithdrawalSchema.shape.expectedPayee, r.expected_payee),
    requestedBy: String(r.requested_by),
    requestedAt: String(r.requested_at),
    state: APPROVAL_STATES.find((s) => s === r.state) ?? 'pending',
    decidedBy: typeof r.decided_by === 'string' ? r.decided_by : null,
    decidedAt: typeof r.decided_at === 'string' ? r.decided_at : null,
    decisionNote: typeof r.decision_note === 'string' ? r.decision_note : null,
    refundAddress: typeof r.refund_address === 'string' ? r.refund_address : null,
    refundRegistered: r.refund_registered === true,
  }
}

/** Every approval read carries its refund (or delivery) address and whether the team registered it. */
const REFUND = `request->>'refundAddress' AS refund_address,
  EXISTS (SELECT 1 FROM treasury_addresses t WHERE t.address = request->>'refundAddress') AS refund_registered,
  EXISTS (SELECT 1 FROM treasury_addresses t WHERE t.address = depix_address) AS depix_registered`

/** The approval's record exists: it was sent (a payment or a top-up, by its kind). */
const SENT = (a: string): string => `CASE ${a}.kind WHEN 'deposit'
  THEN EXISTS (SELECT 1 FROM deposits d WHERE d.local_id = ${a}.local_id)
  ELSE EXISTS (SELECT 1 FROM withdrawals w WHERE w.local_id = ${a}.local_id) END`

export function approvalsApi(pool: pg.Pool): ApprovalsApi {
  const q = async (sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => {
    try {
      return (await pool.query(sql, params)).rows
    } catch (e) {
      throw mapPgError(e)
    }
  }
  const threshold = async (): Promise<number | null> => {
    const v = (await q('SELECT approval_above_cents AS v FROM team_settings WHERE id = 1'))[0]?.v
    return v === null || v === undefined ? null : Number(v)
  }
  const decide = async (
    id: string,
    state: 'approved' | 'rejected',
    note: string | null,
  ): Promise<Approval> => {
    if (!idSchema.safeParse(id).success) throw new LedgerError('invalid_input', 'approval id must be a UUID')
    if (note !== null && !noteSchema.safeParse(note).success)
      throw new LedgerError('invalid_input', 'note is too long')
    return withTx(pool, async (t) => {
      const r = await t.c.query(
        `SELECT a.*, ${REFUND} FROM decide_approval($1, $2, $3) a WHERE a.id IS NOT NULL`,
        [id, state, note],
      )
      if (!r.rows[0]) throw new LedgerError('not_found', `no approval ${id}`)
      return rowToApproval(r.rows[0])
    })
  }
  return {
    approvalThreshold: threshold,
    setApprovalThreshold: async (cents) => {
      if (cents !== null && !(Number.isSafeInteger(cents) && cents >= 0)) {
        throw new LedgerError('invalid_input', 'threshold must be whole cents ≥ 0, or null')
      }
      await q('UPDATE team_settings SET approval_above_cents = $1, updated_by = session_user WHERE id = 1', [
        cents,
      ])
    },
    needsApproval: async (amountCents, refundAddress) => {
      const r = (
        await q(
          `SELECT approval_above_cents AS t, EXISTS (SELECT 1 FROM treasury_addresses) AS listed,
             EXISTS (SELECT 1 FROM treasury_addresses WHERE address = $1) AS registered
           FROM team_settings WHERE id = 1`,
          [refundAddress ?? null],
        )
      )[0]
      const t = r?.t === null || r?.t === undefined ? null : Number(r.t)
      const unregistered = refundAddress != null && r?.listed === true && r.registered !== true
      return (t !== null && amountCents > t) || unregistered
    },
    requestApproval: async (input, note) => {
      const r = newWithdrawalSchema.safeParse(input)
      if (!r.success) throw new LedgerError('invalid_input', `new withdrawal: ${r.error.message}`)
      if (note !== undefined && !noteSchema.safeParse(note).success)
        throw new LedgerError('invalid_input', 'note is too long')
      const n = r.data
      return withTx(pool, async (t) => {
        const row = await t.c.query(
          `SELECT a.*, ${REFUND} FROM request_approval($1, $2, $3, $4, $5, $6, $7, $8, $9) a`,
          [
            n.localId ?? randomUUID(),
            n.profile,
            JSON.stringify(n.request),
            n.pixKey,
            n.amountKind,
            n.amountCents,
            note ?? null,
            n.references && Object.keys(n.references).length > 0 ? JSON.stringify(n.references) : null,
            n.expectedPayee ? JSON.stringify(n.expectedPayee) : null,
          ],
        )
        return rowToApproval(row.rows[0] ?? {})
      })
    },
    topUpNeedsApproval: async (amountCents, depixAddress) =>
      (await q('SELECT topup_needs_approval($1, $2) AS v', [amountCents, depixAddress]))[0]?.v === true,
    requestTopUpApproval: async (input, note) => {
      const r = newTopUpApprovalSchema.safeParse(input)
      if (!r.success) throw new LedgerError('invalid_input', `top-up approval: ${r.error.message}`)
      if (note !== undefined && !noteSchema.safeParse(note).success)
        throw new LedgerError('invalid_input', 'note is too long')
      const n = r.data
      return withTx(pool, async (t) => {
        const row = await t.c.query(`SELECT a.*, ${REFUND} FROM request_topup_approval($1, $2, $3, $4) a`, [
          n.localId,
          n.profile,
          JSON.stringify(n.request),
          note ?? null,
        ])
        return rowToApproval(row.rows[0] ?? {})
      })
    },
    approve: (id, note) => decide(id, 'approved', note ?? null),
    reject: (id, note) => decide(id, 'rejected', note),
    getApproval: async (id) => {
      if (!idSchema.safeParse(id).success) return undefined
      const r = (await q(`SELECT *, ${REFUND} FROM approvals WHERE id = $1`, [id]))[0]
      return r ? rowToApproval(r) : undefined
    },
    openApprovals: async () =>
      (
        await q(
          `SELECT a.*, ${REFUND} FROM approvals a
           WHERE a.state = 'pending' OR (a.state = 'approved' AND NOT ${SENT('a')})
           ORDER BY a.requested_at, a.id`,
        )
      ).map(rowToApproval),
    approvalSent: async (a) =>
      (a.kind === 'deposit'
        ? await q('SELECT 1 FROM deposits WHERE local_id = $1', [a.localId])
        : await q('SELECT 1 FROM withdrawals WHERE local_id = $1', [a.localId])
      ).length > 0,
    pendingApprovals: async () =>
      (await q(`SELECT *, ${REFUND} FROM approvals WHERE state = 'pending' ORDER BY requested_at, id`)).map(
        rowToApproval,
      ),
  }
}
