/**
 * IPC channels of payment runs (issue #15), spread into `channels` / `events` of contract.ts. This file must not
 * import contract.ts (contract.ts imports it).
 */
import { z } from 'zod'
import { folderTokenSchema } from './folder-token'
import {
  duplicateSchema,
  payeeMatchSchema,
  ROW_DECISIONS,
  ROW_OUTCOMES,
  RUN_FILE_MAX_BYTES,
  RUN_ROW_STATES,
  runIssueSchema,
  runRecordSchema,
  runWaveSchema,
} from './run'
import { withdrawalDraftSchema } from './withdrawal'
import { unknownResolutionSchema } from './withdrawal-record'

const runId = z.string().regex(/^run-[0-9a-f-]{36}$/)

const totalsSchema = z.object({
  count: z.number().int(),
  payoutCents: z.number().int(),
  depositCents: z.number().int(),
  feeCents: z.number().int(),
})

export const runDetailSchema = z.object({
  run: runRecordSchema,
  summary: totalsSchema.extend({
    byCategory: z.array(totalsSchema.extend({ key: z.string() })),
    byCostCentre: z.array(totalsSchema.extend({ key: z.string() })),
    undecided: z.number().int(),
    dropped: z.number().int(),
  }),
  progress: z.object({
    total: z.number().int(),
    counts: z.record(z.enum(ROW_OUTCOMES), z.number().int()),
    created: z.number().int(),
    funded: z.number().int(),
    paid: z.number().int(),
    returned: z.number().int(),
  }),
  rows: z.array(
    z.object({
      idx: z.number().int(),
      line: z.number().int(),
      draft: withdrawalDraftSchema,
      payee: payeeMatchSchema,
      duplicate: duplicateSchema.nullable(),
      decision: z.enum(ROW_DECISIONS).nullable(),
      state: z.enum(RUN_ROW_STATES),
      wave: z.number().int().nullable(),
      localId: z.string().nullable(),
      heldReason: z.string().nullable(),
      outcome: z.enum(ROW_OUTCOMES),
      /** The row's old create is known not to have created anything (a passing refusal, or resolved so). */
      retry: z.boolean(),
    }),
  ),
  waves: z.array(runWaveSchema),
  nextCreateInMs: z.number().int().nonnegative(),
  proposal: z
    .object({
      size: z.number().int(),
      creationMs: z.number().int(),
      firstDeadlineMs: z.number().int(),
      assumed: z.boolean(),
    })
    .nullable(),
  /**
   * Four-eyes on a team ledger (issue #16): whether the run needs another analyst's approval, who asked for it and
   * whether this desk's role did; null on this computer's ledger.
   */
  approval: z
    .object({
      needed: z.boolean(),
      requestedBy: z.string().nullable(),
      requestedAt: z.string().nullable(),
      mine: z.boolean(),
      rejectedBy: z.string().nullable(),
      rejectedReason: z.string().nullable(),
      /** Refund addresses of the rows to pay that are not the team's registered ones (issue #26). */
      unregisteredRefunds: z.array(z.string()),
    })
    .nullable(),
  /** The run is `creating` but by no desk any more (its wave lease expired): "resume" takes it over. */
  takeover: z.boolean(),
  /** Why the last wave ended early: the service's withdrawals live shorter than planned (issue #25). */
  notice: z
    .object({
      code: z.literal('wave_cut_lifetime'),
      wave: z.number().int(),
      lifetimeMs: z.number().int(),
      deferred: z.number().int(),
    })
    .nullable(),
})
export type RunDetailView = z.infer<typeof runDetailSchema>

const sheetLineSchema = z.object({
  idx: z.number().int(),
  line: z.number().int(),
  localId: z.string(),
  payee: z.string().nullable(),
  pixKey: z.string(),
  address: z.string(),
  cents: z.number().int(),
  depixAmount: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
  expiration: z.string().nullable(),
})

export const fundingSheetSchema = z.object({
  runId: z.string(),
  wave: z.number().int(),
  lines: z.array(sheetLineSchema),
  problems: z.array(
    z.object({
      idx: z.number().int(),
      line: z.number().int(),
      localId: z.string().nullable(),
      problem: z.string(),
    }),
  ),
  totalCents: z.number().int(),
  totalDepix: z.string(),
  earliestDeadline: z.string().nullable(),
  assetId: z.string().nullable(),
  filesProblem: z.enum(['no_lines', 'repeated_address', 'funding_unconfirmed']).nullable(),
  /** `elements-cli -named sendmany …` for this wave (also in the saved JSON). */
  command: z.string().nullable(),
})
export type FundingSheetView = z.infer<typeof fundingSheetSchema>

const runOnly = z.strictObject({ runId })
const detail = runDetailSchema
/** Base64 of at most RUN_FILE_MAX_BYTES: 4 characters per 3 bytes. */
const BASE64_MAX = Math.ceil(RUN_FILE_MAX_BYTES / 3) * 4

export const runsChannels = {
  /** Writes the empty template (pt-BR and en) into a folder chosen with `dialog:chooseFolder`. */
  'runs:saveTemplate': {
    input: z.strictObject({ folder: folderTokenSchema }),
    output: z.object({ files: z.array(z.string()) }),
  },
  /** The file's bytes (base64): the renderer read a file the operator picked; main checks everything. */
  'runs:import': {
    input: z.strictObject({
      name: z.string().max(260),
      contentBase64: z.string().max(BASE64_MAX, { error: 'file_too_large' }),
    }),
    output: z.object({
      runId: z.string().nullable(),
      kind: z.enum(['csv', 'xlsx']).nullable(),
      lines: z.number().int(),
      rows: z.number().int(),
      issues: z.array(runIssueSchema),
    }),
  },
  'runs:list': { input: z.undefined(), output: z.array(runRecordSchema) },
  'runs:get': { input: runOnly, output: detail },
  'runs:decide': {
    input: z.strictObject({ runId, idx: z.number().int().min(0).max(999), decision: z.enum(ROW_DECISIONS) }),
    output: detail,
  },
  /**
   * The operator types the run's control total — what arrives by Pix over the rows to pay, in cents, the figure
   * their ERP or spreadsheet has (issue #26) — and it must match. The screen does not print it beside the field.
   */
  'runs:approve': {
    input: z.strictObject({ runId, confirmPayoutCents: z.number().int().nonnegative() }),
    output: detail,
  },
  'runs:startWave': {
    input: z.strictObject({ runId, size: z.number().int().min(1).max(1000).optional() }),
    output: detail,
  },
  'runs:pause': { input: runOnly, output: detail },
  'runs:resume': { input: runOnly, output: detail },
  /**
   * Cancels the run. Another analyst cancelling a run that waits for their approval rejects it, and a rejection
   * needs a reason (audited, shown to the requester), like a payment's.
   */
  'runs:cancel': {
    input: z.strictObject({ runId, reason: z.string().trim().max(500).optional() }),
    output: detail,
  },
  'runs:sheet': {
    input: z.strictObject({ runId, wave: z.number().int().min(1).max(1000) }),
    output: fundingSheetSchema,
  },
  /** Writes the wave's CSV and sendmany JSON into a folder chosen with `dialog:chooseFolder`. */
  'runs:saveSheet': {
    input: z.strictObject({ runId, wave: z.number().int().min(1).max(1000), folder: folderTokenSchema }),
    output: z.object({ files: z.array(z.string()) }),
  },
  'runs:markWaveFunded': {
    input: z.strictObject({
      runId,
      wave: z.number().int().min(1).max(1000),
      txId: z.string().trim().max(128).optional(),
    }),
    output: detail,
  },
  /** A row known not to be created waits for the next wave again (a new, journaled create). */
  'runs:retryRow': {
    input: z.strictObject({ runId, idx: z.number().int().min(0).max(999) }),
    output: detail,
  },
  /** A row whose outcome is unknown, resolved as a single payment is. */
  'runs:resolveRow': {
    input: z.strictObject({
      runId,
      idx: z.number().int().min(0).max(999),
      resolution: unknownResolutionSchema,
    }),
    output: detail,
  },
  /** Sandbox profile only: sends every deposit of the wave, exactly, as a wallet would. */
  'runs:sandboxFundWave': {
    input: z.strictObject({ runId, wave: z.number().int().min(1).max(1000) }),
    output: detail,
  },
} as const

export const runsEvents = {
  /** A run or one of its rows changed. */
  'run:changed': z.object({ runId: z.string() }),
} as const
