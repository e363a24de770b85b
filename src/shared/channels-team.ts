/**
 * IPC of the team ledger (issue #16): the active profile's connection to the team's PostgreSQL server, the
 * desk's standing in the team (identity, leader, connected), and four-eyes approvals. The role's password crosses
 * IPC only inward (`team:save`, `team:test`) and never comes back: views carry `hasPassword`.
 *
 * The approval flow: `withdrawals:quote` says `needsApproval`; the analyst asks for it (`approvals:request`, the
 * quoted body and its intent, so what is approved is exactly what was reviewed); another analyst approves or
 * rejects (the database refuses a self-decision); any analyst then sends the approved payment
 * (`approvals:send`: the body comes from the approval in the database, never from the renderer) through the one
 * journaled create.
 */
import { z } from 'zod'
import { recordKindSchema } from './record-kinds'
import { withdrawalDraftSchema } from './withdrawal'
import { runApprovalItemSchema } from './run-approval'
import { withdrawalRecordSchema } from './withdrawal-record'
import { depositDraftSchema } from './deposit-draft'
import { depositRecordSchema } from './deposit-record'
import { TEAM_TEST_VERDICTS, teamLedgerSettingsSchema, teamLedgerViewSchema } from './team-ledger'
import { settingChangeSchema } from './team-settings-changes'

const none = z.undefined()

/** The role's password: typed by the analyst, kept in main's vault. */
const passwordSchema = z.string().min(1, 'password_required').max(1024, 'password_too_long')

// Defined beside the settings they judge (team-ledger.ts); re-exported where the channels name them.
export { TEAM_TEST_VERDICTS, type TeamTestVerdict } from './team-ledger'

export const teamTestResultSchema = z.object({
  verdict: z.enum(TEAM_TEST_VERDICTS),
  /** The database's name for this desk (`session_user`); null when the connection failed. */
  identity: z.string().nullable(),
  schemaVersion: z.number().int().nullable(),
  /** Cents above which a payment needs another analyst's approval; null: approval off. */
  approvalAboveCents: z.number().int().nullable(),
  /** English, for "Detalhes técnicos": the driver's code or SQLSTATE, never a password. */
  detail: z.string().nullable(),
})
export type TeamTestResult = z.infer<typeof teamTestResultSchema>

/** A desk whose clock differs from the team server's by more than this says so in the top bar. */
export const CLOCK_SKEW_NOTICE_MS = 60_000

/** Who runs the team's status tracker, as the server sees it (its tracker lease, migration 12). */
export const teamLeadSchema = z.object({
  /** The database role of the desk holding the lease. */
  holder: z.string().max(200),
  /** Since its last heartbeat, on the server's clock. */
  heartbeatAgeMs: z.number().int().nonnegative(),
  /** Its heartbeats stopped and the lease expired: another desk takes over at its next attempt. */
  lapsed: z.boolean(),
})
export type TeamLead = z.infer<typeof teamLeadSchema>

/** Where this desk stands: the engine of the active profile's ledger and, on a team, its role in it. */
export const teamStatusSchema = z.object({
  engine: z.enum(['sqlite', 'postgres']),
  identity: z.string().nullable(),
  connected: z.boolean(),
  /** This desk runs the team's status tracker (it holds the tracker lease). */
  leader: z.boolean(),
  /** Who leads and how fresh its heartbeat is, as last read; null: no desk has led yet, or not known. */
  lead: teamLeadSchema.nullable().optional(),
  /** The team server's clock minus this computer's (ms), from the last round trip; null: not measured yet. */
  clockSkewMs: z.number().int().nullable().optional(),
  approvalAboveCents: z.number().int().nullable(),
  /** Why `connected` is false (the connection test's verdicts); null or absent when connected. */
  reason: z.enum(TEAM_TEST_VERDICTS).exclude(['ok']).nullable().optional(),
})
export type TeamStatus = z.infer<typeof teamStatusSchema>

export const APPROVAL_VIEW_STATES = ['pending', 'approved', 'rejected', 'sent'] as const

export const approvalViewSchema = z.object({
  id: z.string(),
  /** Of a payment, or of a top-up (Comprar DePix: no Pix key; the DePix goes to `depixAddress`). */
  kind: recordKindSchema.default('withdrawal'),
  /** The record id the payment will have once sent. */
  localId: z.string(),
  profile: z.string(),
  /** The exact body that will be POSTed. */
  request: z.looseObject({}),
  pixKey: z.string(),
  amountKind: z.enum(['deposit', 'payout']),
  amountCents: z.number().int(),
  note: z.string().nullable(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  state: z.enum(APPROVAL_VIEW_STATES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** Asked for by this desk's role: it may not decide it. */
  mine: z.boolean(),
  /** Where a failed payout refunds the deposit (the request's refundAddress): the approver sees it. */
  refundAddress: z.string().nullable().default(null),
  /** Whether it is one of the team's registered treasury addresses (issue #24). */
  refundRegistered: z.boolean().default(false),
  /** A top-up's delivery address (where the DePix goes): the approver sees it. */
  depixAddress: z.string().nullable().default(null),
  /** Whether it is one of the team's registered treasury addresses. */
  depixRegistered: z.boolean().default(false),
})
export type ApprovalView = z.infer<typeof approvalViewSchema>

const approvalIdInput = z.strictObject({ id: z.uuid() })
const noteSchema = z.string().trim().max(500, 'note_too_long')

/** The connection settings (Settings → "Livro-caixa da equipe"). */
export const teamConnectionChannels = {
  /** The active profile's team connection (null settings: the profile uses this computer's ledger). */
  'team:get': { input: none, output: teamLedgerViewSchema },
  /** Saves and reconnects the active profile; a password is kept in the vault (omit it to keep the stored one). */
  'team:save': {
    input: z.strictObject({ settings: teamLedgerSettingsSchema, password: passwordSchema.optional() }),
    output: teamLedgerViewSchema,
  },
  /** Connects once with these settings (or the stored ones) without saving anything. */
  'team:test': {
    input: z
      .strictObject({ settings: teamLedgerSettingsSchema, password: passwordSchema.optional() })
      .optional(),
    output: teamTestResultSchema,
  },
  /** Back to this computer's ledger for the active profile; the stored password is deleted. */
  'team:forget': { input: none, output: teamLedgerViewSchema },
} as const

/** The desk's standing in the team and the four-eyes approvals. */
export const teamChannels = {
  'team:status': { input: none, output: teamStatusSchema },
  /**
   * The team's settings history from its audit chain (threshold, rate allowances, analysts), newest first; empty
   * on this computer's ledger.
   */
  'team:changes': { input: none, output: z.array(settingChangeSchema) },

  /** Pending approvals and approved ones not yet sent, oldest first. */
  'approvals:list': { input: none, output: z.array(approvalViewSchema) },
  'approvals:request': {
    input: z.strictObject({
      draft: withdrawalDraftSchema,
      /** `withdrawals:quote`'s `intent.id`: what is approved is what was reviewed. */
      intentId: z.string().min(1).max(100),
      confirmedDuplicates: z.array(z.string().min(1).max(100)).max(100).optional(),
      note: noteSchema.optional(),
    }),
    output: approvalViewSchema,
  },
  /** The same for a reviewed top-up (`deposits:quote` says `needsApproval`). */
  'approvals:requestTopUp': {
    input: z.strictObject({
      draft: depositDraftSchema,
      intentId: z.string().min(1).max(100),
      confirmedDuplicates: z.array(z.string().min(1).max(100)).max(100).optional(),
      note: noteSchema.optional(),
    }),
    output: approvalViewSchema,
  },
  'approvals:approve': {
    input: approvalIdInput.extend({ note: noteSchema.optional() }),
    output: approvalViewSchema,
  },
  'approvals:reject': {
    input: approvalIdInput.extend({ note: noteSchema.min(1, 'note_required') }),
    output: approvalViewSchema,
  },
  /**
   * Sends an approved payment (one journaled POST /withdraw) or creates an approved top-up (one journaled
   * POST /deposit), with the approval's stored body.
   */
  'approvals:send': {
    input: approvalIdInput,
    output: z.union([withdrawalRecordSchema, depositRecordSchema]),
  },
  /** Payment runs waiting for another analyst's approval, oldest request first (approved on the run's screen). */
  'approvals:runs': { input: none, output: z.array(runApprovalItemSchema) },
} as const

export const teamEvents = {
  'team:status': teamStatusSchema,
  /** An approval was asked for, decided or sent, on any desk (LISTEN/NOTIFY). */
  'approval:changed': approvalViewSchema,
  /** A payee-book entry changed on some desk of the team (LISTEN/NOTIFY): re-read the book. */
  'payee:changed': z.object({ id: z.string().min(1).max(100) }),
} as const satisfies Record<string, z.ZodType>
