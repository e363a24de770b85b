/**
 * THE IPC contract. Every call from the renderer to main goes through a channel named here, with a zod schema
 * for its input (validated in main; the renderer is untrusted) and for its output (parsed in main before it
 * leaves, which strips any field not named here — the last guard against leaking a secret). Results never throw
 * across IPC: they are `{ ok: true, data }` or `{ ok: false, error }`.
 */
import { z } from 'zod'
import { ENDPOINTS } from './api-limits'
import { depositsChannels, depositsEvents } from './channels-deposits'
import { fundingAlertSchema } from './funding-alert'
import { folderTokenSchema } from './folder-token'
import { receiptsChannels, receiptsEvents } from './channels-receipts'
import { runsChannels, runsEvents } from './channels-runs'
import {
  credentialsInputSchema,
  liquidNetworkSchema,
  newLiveProfileInputSchema,
  profileUpdateSchema,
  publicProfileSchema,
  settingsPatchSchema,
  settingsSchema,
} from './profile'
import { payeesChannels } from './channels-payees'
import { reviewChannels } from './channels-review'
import { teamChannels, teamConnectionChannels, teamEvents } from './channels-team'
import { walletChannels, walletEvents } from './channels-wallet'
import { walletPayEvents } from './channels-wallet-pay'
import { walletPayChannels } from './channels-wallet-pay'
import { expectedPayeeSchema } from './payee'
import { withdrawalDraftSchema } from './withdrawal'
import {
  recordFilterSchema,
  statusObservationSchema,
  unknownResolutionSchema,
  withdrawalRecordSchema,
} from './withdrawal-record'

export const ipcErrorSchema = z.object({
  /** Stable code: `invalid_input`, `unknown_channel`, `internal`, an ApiError kind, or a service's own code. */
  code: z.string(),
  /** English fallback text; the renderer shows its own translation of `code` where it has one. */
  message: z.string(),
  /** Present when the failure came from the DePix API (an ApiError kind). */
  kind: z.string().optional(),
  status: z.number().int().nullable().optional(),
  requestId: z.string().nullable().optional(),
  messageCode: z.string().optional(),
  denialCode: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
  /** The service's own free text, shown raw next to our message, never parsed. */
  serviceMessage: z.string().optional(),
  /** End-user sentence for API errors, in pt-BR and en. */
  userMessage: z.object({ 'pt-BR': z.string(), en: z.string() }).optional(),
  /** Field-level refusals of validated input, by field path: stable message codes. */
  fields: z.record(z.string(), z.string()).optional(),
  /** A finer machine reason (e.g. the Liquid helper's refusal behind `refund_address_invalid`). */
  reason: z.string().optional(),
  /** Records concerned (e.g. the similar withdrawals behind a `duplicate` refusal), by local id. */
  localIds: z.array(z.string()).optional(),
})
// Not loose: whatever a mapper puts on an error, only the fields named here cross to the renderer.
export type IpcError = z.infer<typeof ipcErrorSchema>

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError }

const none = z.undefined()

/** Where the audit-trail check stands; `reason` is our own English text (the renderer shows its own words). */
export const ledgerIntegritySchema = z.object({
  state: z.enum(['checking', 'ok', 'broken', 'error']),
  checkedAt: z.string().nullable(),
  rows: z.number().int().optional(),
  brokenAt: z.number().int().optional(),
  reason: z.string().optional(),
  /** Which ledger: absent for this computer's; `team` for the team ledger on a server (issue #16). */
  ledger: z.literal('team').optional(),
})
export type LedgerIntegrity = z.infer<typeof ledgerIntegritySchema>

export const ledgerBackupSchema = z.object({
  name: z.string(),
  createdAt: z.string(),
  reason: z.enum(['migration', 'daily', 'restore', 'manual']),
  sizeBytes: z.number().int().nonnegative(),
})
export type LedgerBackup = z.infer<typeof ledgerBackupSchema>
const localIdInput = z.strictObject({ localId: z.string().min(1).max(100) })

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** True while the active profile is the embedded sandbox. */
  sandbox: z.boolean(),
  profileName: z.string().optional(),
  network: liquidNetworkSchema.optional(),
})
export type AppInfo = z.infer<typeof appInfoSchema>

export const sessionViewSchema = z.object({
  kind: z.enum(['client_credentials', 'legacy_token']),
  sub: z.string().nullable(),
  scopes: z.array(z.string()),
  env: z.string().nullable(),
  accessExpiresAt: z.string().nullable(),
  /** A live profile whose token looks like sandbox, or the reverse. */
  envWarning: z.enum(['sandbox_token_on_live', 'live_token_on_sandbox']).nullable(),
})
export type SessionView = z.infer<typeof sessionViewSchema>

export const allowanceSchema = z.object({
  /** In force: below `configuredPerMinute` when the client lowered it after repeated 429s. */
  limitPerMinute: z.number(),
  configuredPerMinute: z.number().optional(),
  available: z.number(),
  nextTokenInMs: z.number(),
})
export const allowancesSchema = z.record(z.enum(ENDPOINTS), allowanceSchema)
export type Allowances = z.infer<typeof allowancesSchema>

export const vaultStatusSchema = z.object({ persistent: z.boolean(), reason: z.string() })

export const liquidCheckSchema = z.union([
  z.object({
    ok: z.literal(true),
    address: z.string(),
    network: liquidNetworkSchema,
    confidential: z.boolean(),
    kind: z.string(),
    scriptPubKey: z.string(),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.string(),
    message: z.string(),
    actualNetwork: liquidNetworkSchema.optional(),
  }),
])
export type LiquidCheck = z.infer<typeof liquidCheckSchema>

export const withdrawalQuoteSchema = z.object({
  /** The exact JSON body that will be sent. */
  request: z.looseObject({}),
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
  feeCents: z.number().int(),
  partnerRateBps: z.number().int(),
  refundAddress: liquidCheckSchema,
  /** Similar records (same Pix key and amount) in the last 24 h: creating needs an explicit confirmation. */
  duplicates: z.array(withdrawalRecordSchema),
  /** The payee-book entry the draft named, as the book has it now (issue #14); null when none. */
  payee: expectedPayeeSchema.nullable().optional(),
  /**
   * The one-use authority to create exactly this request on this profile, given the duplicates above. Valid for
   * `expiresInSeconds`; a create with it is refused once it was used or when a new similar record appeared.
   */
  intent: z.object({ id: z.string(), expiresInSeconds: z.number().int() }),
  /**
   * Team ledger only (issue #16): the amount is above the team's threshold, so the payment is not created but
   * sent for another analyst's approval (`approvals:request`, src/shared/channels-team.ts). Absent: false.
   */
  needsApproval: z.boolean().optional(),
})
export type WithdrawalQuote = z.infer<typeof withdrawalQuoteSchema>

export const fundingInstructionsSchema = z.object({
  localId: z.string(),
  address: z.string(),
  confidential: z.boolean(),
  network: liquidNetworkSchema,
  cents: z.number().int(),
  /** Exactly 8 decimals. */
  depixAmount: z.string(),
  assetId: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
  expiration: z.string().nullable(),
  toleranceBps: z.number().int(),
})
export type FundingInstructions = z.infer<typeof fundingInstructionsSchema>

export { FUNDING_ALERT_FIELDS, fundingAlertSchema, type FundingAlert } from './funding-alert'

export const withdrawalDetailSchema = z.object({
  record: withdrawalRecordSchema,
  observations: z.array(statusObservationSchema),
  funding: fundingInstructionsSchema.nullable(),
  /** Why there are no funding instructions (e.g. `deposit_address_invalid`, `not_created`, `no_deposit_address`). */
  fundingProblem: z.string().nullable(),
  /** Set with `fundingProblem` `funding_mismatch` / `funding_unconfirmed`: what the service's answer said. */
  fundingAlert: fundingAlertSchema.nullable(),
})
export type WithdrawalDetail = z.infer<typeof withdrawalDetailSchema>

export const statusTotalSchema = z.object({
  status: z.string(),
  hasRefund: z.boolean(),
  count: z.number().int(),
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
})

export const recordPageSchema = z.object({
  rows: z.array(withdrawalRecordSchema),
  total: z.number().int(),
  totals: z.array(statusTotalSchema),
})
export type RecordPageView = z.infer<typeof recordPageSchema>

export { unknownResolutionSchema }

export { folderTokenSchema }
export const FOLDER_PURPOSES = ['export', 'review'] as const
export const folderChoiceSchema = z.object({
  token: z.string(),
  /** What the user picked, to show; sending it back names nothing. */
  folder: z.string(),
})

export const EXPORT_FORMATS = ['csv', 'json', 'html'] as const
export const exportRequestSchema = z.strictObject({
  /** From `dialog:chooseFolder` with purpose `export`; works once. */
  folder: folderTokenSchema,
  formats: z.array(z.enum(EXPORT_FORMATS)).min(1),
  filter: recordFilterSchema.omit({ limit: true, offset: true, sort: true }).optional(),
  csvDelimiter: z.enum([';', ',']).optional(),
  locale: z.enum(['pt-BR', 'en']).optional(),
  /** Issue #14: copy the records' stored receipts into the export (listed and hashed in the manifest). */
  includeReceipts: z.boolean().optional(),
  /** Issue #17: which record kind the export holds (default withdrawals; deposits are "compras de DePix"). */
  recordKind: z.enum(['withdrawal', 'deposit']).optional(),
})
export const exportResultSchema = z.object({
  manifestPath: z.string(),
  files: z.array(z.string()),
  rowCount: z.number().int(),
})

export const verifyProblemSchema = z.object({
  file: z.string(),
  check: z.enum(['missing', 'hash', 'signature', 'schema', 'row_count', 'totals', 'audit']),
  detail: z.string(),
})
/** Whether the export's signer is the key the reviewer expected (a valid signature alone proves nothing). */
export const reviewSignerSchema = z.object({
  /** `none`: no expected fingerprint given, so "signed by an unknown key". */
  match: z.enum(['match', 'mismatch', 'none']),
  /** The fingerprint compared with, as keyFingerprint prints it; null when none. */
  expected: z.string().nullable(),
  /** `this_computer`: prefilled because the export carries this installation's own key. */
  source: z.enum(['this_computer', 'entered']).nullable(),
})
export type ReviewSigner = z.infer<typeof reviewSignerSchema>

export const reviewSummarySchema = z.object({
  dir: z.string(),
  ok: z.boolean(),
  problems: z.array(verifyProblemSchema),
  signerFingerprint: z.string(),
  signer: reviewSignerSchema,
  /** Facts read from the manifest (shown even when verification failed, marked as such). */
  manifest: z
    .object({
      appVersion: z.string().optional(),
      profile: z.string().optional(),
      network: z.string().optional(),
      exportedAt: z.string().optional(),
      rowCount: z.number().optional(),
    })
    .loose()
    .nullable(),
  rowCount: z.number().int(),
})
export type ReviewSummary = z.infer<typeof reviewSummarySchema>

export const channels = {
  'app:info': { input: none, output: appInfoSchema },

  'session:get': { input: none, output: sessionViewSchema.nullable() },
  'session:signIn': { input: none, output: sessionViewSchema },
  'session:signOut': { input: none, output: z.null() },

  'profiles:list': {
    input: none,
    output: z.object({
      profiles: z.array(publicProfileSchema),
      activeId: z.string(),
      vault: vaultStatusSchema,
    }),
  },
  'profiles:addLive': { input: newLiveProfileInputSchema, output: publicProfileSchema },
  'profiles:setCredentials': {
    input: z.strictObject({ id: z.string(), credentials: credentialsInputSchema }),
    output: publicProfileSchema,
  },
  'profiles:update': {
    input: z.strictObject({ id: z.string(), patch: profileUpdateSchema }),
    output: publicProfileSchema,
  },
  'profiles:remove': { input: z.strictObject({ id: z.string() }), output: z.null() },
  'profiles:select': { input: z.strictObject({ id: z.string() }), output: publicProfileSchema },

  'settings:get': { input: none, output: settingsSchema },
  'settings:update': { input: settingsPatchSchema, output: settingsSchema },

  'allowance:get': { input: none, output: allowancesSchema },

  'liquid:check': { input: z.strictObject({ address: z.string().max(4096) }), output: liquidCheckSchema },

  'withdrawals:quote': {
    input: z.strictObject({ draft: withdrawalDraftSchema }),
    output: withdrawalQuoteSchema,
  },
  'withdrawals:create': {
    input: z.strictObject({
      draft: withdrawalDraftSchema,
      /** `withdrawals:quote`'s `intent.id`. */
      intentId: z.string().min(1).max(100),
      /** Local ids of the similar records the operator confirmed as not duplicates (all of them, or refused). */
      confirmedDuplicates: z.array(z.string().min(1).max(100)).max(100).optional(),
      /** The amount typed again on a live profile above the desk limit (issue #26), in cents. */
      confirmedAmountCents: z.number().int().nonnegative().optional(),
    }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:list': { input: recordFilterSchema, output: recordPageSchema },
  'withdrawals:get': { input: localIdInput, output: withdrawalDetailSchema },
  'withdrawals:markFunded': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      txId: z.string().trim().max(128).optional(),
    }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:resolveUnknown': {
    input: z.strictObject({ localId: z.string().min(1).max(100), resolution: unknownResolutionSchema }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:refresh': { input: localIdInput, output: withdrawalRecordSchema },
  /** "Devoluções a conciliar": marks a returned payment reconciled (one audit entry; twice is a no-op). */
  'withdrawals:reconcileRefund': {
    input: localIdInput,
    output: z.object({ at: z.string(), operator: z.string() }),
  },
  /** Which of these returned payments were marked reconciled (Hoje leaves them out of its list). */
  'withdrawals:reconciledRefunds': {
    input: z.strictObject({ localIds: z.array(z.string().min(1).max(100)).max(100) }),
    output: z.array(z.string()),
  },

  'sandbox:fund': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      mode: z.enum(['exact', 'over_tolerance', 'under_tolerance']),
    }),
    output: withdrawalRecordSchema,
  },
  'sandbox:settle': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      outcome: z.enum(['sent', 'invalid_pix_key', 'key_tax_mismatch', 'processor_failure']),
    }),
    output: withdrawalRecordSchema,
  },
  'sandbox:maintenance': {
    input: z.strictObject({ on: z.boolean() }),
    output: z.object({ on: z.boolean() }),
  },

  /** Main's own folder dialog; the answer stays in main behind a one-use token. Null: cancelled. */
  'dialog:chooseFolder': {
    input: z.strictObject({ purpose: z.enum(FOLDER_PURPOSES) }),
    output: folderChoiceSchema.nullable(),
  },
  'records:export': { input: exportRequestSchema, output: exportResultSchema },
  'records:publicKey': {
    input: none,
    output: z.object({ fingerprint: z.string(), publicKeyPem: z.string() }),
  },
  'review:open': {
    input: z.strictObject({ folder: folderTokenSchema }),
    output: reviewSummarySchema,
  },
  /** Compares the open review's signer with a fingerprint the reviewer got out of band; empty clears it. */
  'review:checkSigner': {
    input: z.strictObject({ expected: z.string().max(200) }),
    output: reviewSignerSchema,
  },
  'review:list': { input: recordFilterSchema, output: recordPageSchema },
  'review:close': { input: none, output: z.null() },

  /** The ledger's audit-trail check (start-up, in the background) and its backups (Settings). */
  'ledger:integrity': { input: none, output: ledgerIntegritySchema },
  'ledger:backups': { input: none, output: z.array(ledgerBackupSchema) },
  /** Takes a backup of the current ledger first; `confirm` is the operator's explicit yes. */
  'ledger:restore': {
    input: z.strictObject({
      name: z.string().regex(/^ledger-\d{8}T\d{9}Z-[a-z]+\.sqlite$/),
      confirm: z.literal(true),
    }),
    output: z.object({ restored: z.string(), safetyBackup: z.string() }),
  },

  /** `localId` names the record whose receipt URL this is; the Liquid explorer needs none. */
  'shell:openExternal': {
    input: z.strictObject({ url: z.string().max(2048), localId: z.string().max(100).optional() }),
    output: z.object({ opened: z.boolean() }),
  },
  ...payeesChannels,
  ...receiptsChannels,
  ...runsChannels,
  ...depositsChannels,
  ...reviewChannels,
  ...teamConnectionChannels,
  ...teamChannels,
  ...walletChannels,
  ...walletPayChannels,
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>

/** Events pushed from main to the renderer. */
export const events = {
  'withdrawal:changed': withdrawalRecordSchema,
  'session:changed': sessionViewSchema.nullable(),
  'allowance:changed': allowancesSchema,
  'profile:changed': z.object({ activeId: z.string() }),
  'export:progress': z.object({ done: z.number().int(), total: z.number().int() }),
  'ledger:integrity': ledgerIntegritySchema,
  /**
   * Main is waiting before a profile switch or quit: a create's POST is in flight and cutting it would leave the
   * withdrawal's fate unknown. Null when the wait is over.
   */
  'app:waiting': z
    .object({
      reason: z.literal('create_in_flight'),
      action: z.enum(['switch_profile', 'quit']),
      creates: z.number().int(),
    })
    .nullable(),
  /**
   * The operator clicked a desktop notification about an approval (issue #16): open the Aprovações page. The id
   * is the approval's; the page lists the queue as main has it.
   */
  'notification:openApprovals': z.object({ id: z.string() }),
  /** The operator clicked a desktop notification about a run's approval: open that run's screen. */
  'notification:openRun': z.object({ runId: z.string() }),
  ...receiptsEvents,
  ...runsEvents,
  ...depositsEvents,
  ...teamEvents,
  ...walletEvents,
  ...walletPayEvents,
} as const satisfies Record<string, z.ZodType>
export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name)
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}

/** The one object the preload exposes as `window.treasury`. */
export interface TreasuryBridge {
  invoke<C extends ChannelName>(
    channel: C,
    ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
  ): Promise<IpcResult<ChannelOutput<C>>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}
