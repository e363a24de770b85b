/**
 * The create flow (DESIGN §4). The API has no idempotency (spec §1.6), so the order is the whole point:
 *
 *   validate → duplicate guard → journal `submitting` (committed, fsynced) → POST /withdraw once → store outcome
 *
 * A crash between the journal and the stored outcome leaves `submitting`, which the next start turns into
 * `outcome_unknown`. Nothing here ever sends the POST a second time; an unclear answer becomes `outcome_unknown`
 * and waits for the operator.
 */
import type { WithdrawalQuote } from '../../shared/contract'
import { quoteWithdrawal } from '../../shared/fees'
import {
  toWithdrawRequest,
  withdrawalDraftSchema,
  withdrawalMessages,
  DRAFT_ROOT_PATH,
  type WithdrawalDraft,
  type WithdrawRequest,
} from '../../shared/withdrawal'
import type { AmountKind, WithdrawalErrorInfo, WithdrawalRecord } from '../../shared/withdrawal-record'
import { normalizeReferences, type PaymentReferences } from '../../shared/payment-references'
import type { ExpectedPayee, Payee } from '../../shared/payee'
import { ApiError, type ApiResult, type DepixClient, type WithdrawCreated } from '../api'
import { LedgerError, type CreatedOutcome, type Ledger } from '../ledger'
import { checkLiquidAddress, type LiquidAddressCheck, type LiquidNetwork } from '../liquid'
import { SERVICE_FLAGS, WithdrawalError } from './errors'
import type { CreateIntents } from './intents'
import { appendSideJournal, createdEntry, sideJournalPath } from './side-journal'
import { reviewFlags, storeStatus } from './observe'

export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000

export interface CreateCtx {
  ledger: Ledger
  client: DepixClient
  operator: string
  network: LiquidNetwork
  profile: string
  partnerRateBps: number
  now: () => number
  intents: CreateIntents
  /** The payee book (main/payees): a draft naming a payee is checked against it and keeps its name and document. */
  payees?: { byId(id: string): Payee | undefined }
  beforePost?: (record: WithdrawalRecord) => void | Promise<void>
  /** The record changed (emit to the UI). */
  changed: (record: WithdrawalRecord) => void
  /** A record became open: the tracker should know. */
  opened: (localId: string) => void
  onError: (e: unknown, localId: string | null) => void
}

interface Prepared {
  request: WithdrawRequest
  amountKind: AmountKind
  amountCents: number
  refund: LiquidAddressCheck
  duplicates: WithdrawalRecord[]
  references: PaymentReferences
  expectedPayee: ExpectedPayee | null
}

/**
 * The payee the draft names, as the book has it now; refused (on the field the form shows) when it is gone or
 * when the key or CPF/CNPJ about to be sent are not its own: the name check would compare with the wrong person.
 */
function payeeOf(ctx: CreateCtx, draft: WithdrawalDraft, request: WithdrawRequest): ExpectedPayee | null {
  if (draft.payeeId === undefined) return null
  const payee = ctx.payees?.byId(draft.payeeId)
  if (!payee) {
    throw new WithdrawalError('invalid_draft', 'The chosen payee is not in the book.', {
      fields: { payeeId: 'payee_not_found' },
    })
  }
  const fields: Record<string, string> = {}
  if (!payee.pixKeys.some((k) => k.key === request.pixKey)) fields.pixKey = 'payee_key_not_in_book'
  if (request.taxNumber !== undefined && request.taxNumber !== payee.taxNumber) {
    fields.taxNumber = 'payee_document_differs'
  }
  if (Object.keys(fields).length > 0) {
    throw new WithdrawalError('invalid_draft', "The draft differs from the chosen payee's entry.", { fields })
  }
  return { id: payee.id, name: payee.name, taxNumber: payee.taxNumber }
}

/** What the review showed besides the body, and the intent therefore also binds. */
function reviewed(p: Prepared): unknown {
  return { request: p.request, references: p.references, payeeId: p.expectedPayee?.id ?? null }
}

/** Field path → stable message code (the renderer translates codes, never zod's English). */
function draftFields(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || DRAFT_ROOT_PATH
    if (Object.hasOwn(out, field)) continue
    out[field] = Object.hasOwn(withdrawalMessages, issue.message) ? issue.message : 'invalid_value'
  }
  return out
}

function prepare(ctx: CreateCtx, draft: WithdrawalDraft): Prepared {
  const parsed = withdrawalDraftSchema.safeParse(draft)
  if (!parsed.success) {
    throw new WithdrawalError('invalid_draft', 'The withdrawal draft is invalid.', {
      fields: draftFields(parsed.error.issues),
    })
  }
  const body = toWithdrawRequest(parsed.data)
  const refund = checkLiquidAddress(body.refundAddress ?? '', ctx.network)
  // The address the Liquid helper validated is the one sent: a pasted `liquidnetwork:` URI or an upper-case
  // blech32 address becomes the plain address it stands for, so the body never carries something unchecked.
  const request: WithdrawRequest = refund.ok ? { ...body, refundAddress: refund.address } : body
  const amountKind: AmountKind = request.depositAmountInCents !== undefined ? 'deposit' : 'payout'
  const amountCents = (request.depositAmountInCents ?? request.payoutAmountInCents) as number
  const duplicates = ctx.ledger.findRecentSimilar({
    pixKey: request.pixKey,
    amountKind,
    amountCents,
    sinceIso: new Date(ctx.now() - DUPLICATE_WINDOW_MS).toISOString(),
    profile: ctx.profile,
  })
  const expectedPayee = payeeOf(ctx, parsed.data, request)
  const references = normalizeReferences(parsed.data.references)
  return { request, amountKind, amountCents, refund, duplicates, references, expectedPayee }
}

export function quote(ctx: CreateCtx, draft: WithdrawalDraft): WithdrawalQuote {
  const p = prepare(ctx, draft)
  const amount =
    p.amountKind === 'deposit'
      ? { depositAmountInCents: p.amountCents }
      : { payoutAmountInCents: p.amountCents }
  const q = quoteWithdrawal(amount, ctx.partnerRateBps)
  return {
    request: p.request,
    depositCents: q.depositCents,
    payoutCents: q.payoutCents,
    feeCents: q.feeCents,
    partnerRateBps: ctx.partnerRateBps,
    refundAddress: p.refund,
    duplicates: p.duplicates,
    payee: p.expectedPayee,
    intent: ctx.intents.issue(
      ctx.profile,
      reviewed(p),
      p.duplicates.map((d) => d.localId),
    ),
  }
}

export interface CreateAuthority {
  /** The intent the review issued (`quote().intent.id`). */
  intentId: string
  /** Local ids of the similar records the operator confirmed as not duplicates. */
  confirmedDuplicates?: readonly string[]
  /**
   * The local id the record gets (default: a new UUID). A payment run commits it on its row before calling create,
   * so after a crash the row names its record, or proves by its absence that nothing was journaled or sent.
   */
  localId?: string
}

/**
 * Everything before the first `await` below runs synchronously, so two concurrent calls cannot both pass the
 * intent: the first one takes it and its `submitting` record is in the ledger before the second one looks.
 */
export async function create(
  ctx: CreateCtx,
  draft: WithdrawalDraft,
  o: CreateAuthority,
): Promise<WithdrawalRecord> {
  const p = prepare(ctx, draft)
  if (!p.refund.ok) {
    throw new WithdrawalError('refund_address_invalid', `Refund address refused: ${p.refund.message}`, {
      fields: { refundAddress: p.refund.reason },
      reason: p.refund.reason,
    })
  }
  if (ctx.client.session() === null) {
    throw new WithdrawalError('not_signed_in', 'Sign in before creating a withdrawal.')
  }
  // A POST that waited in the limiter's queue would sit journaled but unsent; a crash then would leave an
  // outcome_unknown record that never left. Refuse instead while no token is free.
  const slot = ctx.client.allowance().withdraw
  if (slot.available + 1e-9 < 1 || slot.queued > 0) {
    const retryAfterSeconds = Math.max(1, Math.ceil(slot.nextTokenInMs / 1000))
    throw new WithdrawalError(
      'rate_limited',
      `No POST /withdraw allowance free; retry in ${retryAfterSeconds} s.`,
      {
        retryAfterSeconds,
      },
    )
  }
  // Last check before the journal, and it consumes the intent: nothing may run between it and insertSubmitting.
  ctx.intents.take(o.intentId, {
    profile: ctx.profile,
    request: reviewed(p),
    similarNow: p.duplicates,
    confirmed: o.confirmedDuplicates ?? [],
  })

  const submitting = ctx.ledger.insertSubmitting(
    {
      ...(o.localId === undefined ? {} : { localId: o.localId }),
      profile: ctx.profile,
      request: p.request as Record<string, unknown>,
      pixKey: p.request.pixKey,
      amountKind: p.amountKind,
      amountCents: p.amountCents,
      flags: p.duplicates.length > 0 ? [SERVICE_FLAGS.duplicateConfirmed] : [],
      ...(Object.keys(p.references).length > 0 ? { references: p.references } : {}),
      ...(p.expectedPayee ? { expectedPayee: p.expectedPayee } : {}),
    },
    ctx.operator,
  )
  const localId = submitting.localId
  ctx.changed(submitting)

  if (ctx.beforePost) {
    try {
      await ctx.beforePost(submitting)
    } catch (e) {
      ctx.onError(e, localId)
      return finish(ctx, localId, () =>
        ctx.ledger.markRejected(localId, { ...EMPTY_INFO, kind: 'aborted_before_send' }),
      )
    }
  }

  let res: ApiResult<WithdrawCreated>
  try {
    res = await ctx.client.withdraw(p.request)
  } catch (e) {
    const info = errorInfo(e)
    if (createVerdict(e) === 'rejected')
      return finish(ctx, localId, () => ctx.ledger.markRejected(localId, info))
    const reason = e instanceof ApiError ? (e.code ?? e.kind) : 'unexpected_error'
    return finish(ctx, localId, () => ctx.ledger.markOutcomeUnknown(localId, info, reason))
  }
  return settleCreated(ctx, localId, res)
}

async function settleCreated(
  ctx: CreateCtx,
  localId: string,
  res: ApiResult<WithdrawCreated>,
): Promise<WithdrawalRecord> {
  const d = res.data
  const outcome: CreatedOutcome = {
    remoteId: d.withdrawalId,
    createResponse: d as Record<string, unknown>,
    requestId: res.requestId,
    nonce: res.nonce,
    depositAddress: d.depositAddress ?? null,
    depositAmountCents: d.depositAmountInCents ?? null,
    payoutAmountCents: d.payoutAmountInCents ?? null,
    expiration: d.expiration ?? null,
    status: d.status ?? null,
  }
  let record: WithdrawalRecord
  try {
    record = ctx.ledger.markCreated(localId, outcome)
  } catch (e) {
    ctx.onError(e, localId)
    const info: WithdrawalErrorInfo = {
      ...EMPTY_INFO,
      kind: 'store_failed',
      requestId: res.requestId,
      status: res.status,
      createdId: d.withdrawalId,
    }
    // The ledger refused the answer on purpose (e.g. an id already linked elsewhere): keep what is known where
    // the operator will look, and never as created-and-payable.
    if (e instanceof LedgerError) {
      return finish(ctx, localId, () => ctx.ledger.markOutcomeUnknown(localId, info, 'store_failed'))
    }
    // The ledger could not write (disk full, I/O): the withdrawal exists and its id must survive this moment.
    return storeFailed(ctx, localId, outcome, info)
  }
  ctx.changed(record)

  if (record.depositAddress === null && record.remoteId !== null) {
    // Minimal create response: one status read for the funding facts. If it fails the tracker fills them later.
    try {
      const status = await ctx.client.withdrawStatus(record.remoteId)
      record = storeStatus(ctx, localId, status, ctx.now()).record
    } catch (e) {
      ctx.onError(e, localId)
    }
  }
  record = reviewFlags(ctx, record)
  ctx.opened(localId)
  ctx.changed(record)
  return record
}

/**
 * A created withdrawal whose answer the ledger could not write. The answer goes to the side journal (replayed
 * into the ledger at the next start or create), the record is marked outcome_unknown with the id if the ledger
 * still takes that, and the operator is told the withdrawal id now, whatever else failed.
 */
function storeFailed(
  ctx: CreateCtx,
  localId: string,
  outcome: CreatedOutcome,
  info: WithdrawalErrorInfo,
): never {
  let kept = false
  const file = sideJournalPath(ctx.ledger.file)
  if (file !== null) {
    try {
      appendSideJournal(file, createdEntry(localId, ctx.profile, new Date(ctx.now()).toISOString(), outcome))
      kept = true
    } catch (e) {
      ctx.onError(e, localId)
    }
  }
  try {
    ctx.changed(ctx.ledger.markOutcomeUnknown(localId, info, 'store_failed'))
  } catch (e) {
    // Still `submitting`: the next start replays the side journal, or turns it into outcome_unknown.
    ctx.onError(e, localId)
  }
  const id = outcome.remoteId
  const where = kept
    ? {
        en: 'It was kept in the side journal and will be written to the ledger at the next start.',
        'pt-BR': 'Ele foi guardado no diário auxiliar e será gravado no livro-razão no próximo início.',
      }
    : {
        en: 'It could not be saved anywhere: write it down now.',
        'pt-BR': 'Ele não pôde ser salvo em lugar nenhum: anote-o agora.',
      }
  throw new WithdrawalError(
    'ledger_write_failed',
    `Withdrawal ${id} WAS CREATED, but the local ledger could not store it (${localId}). ${where.en} ` +
      'Do not create it again.',
    {
      localId,
      reason: kept ? 'side_journal' : 'not_saved',
      withdrawalId: id,
      requestId: outcome.requestId,
      userMessage: {
        'pt-BR':
          `O pagamento ${id} FOI CRIADO, mas o registro local não pôde ser gravado. ${where['pt-BR']} ` +
          'Não o crie de novo.',
        en: `Withdrawal ${id} WAS CREATED, but the local record could not be saved. ${where.en} Do not create it again.`,
      },
    },
  )
}

/** Writes the final state; a ledger failure here leaves `submitting`, which a restart turns into outcome_unknown. */
function finish(ctx: CreateCtx, localId: string, write: () => WithdrawalRecord): WithdrawalRecord {
  let record: WithdrawalRecord
  try {
    record = write()
  } catch (e) {
    ctx.onError(e, localId)
    throw new WithdrawalError(
      'ledger_write_failed',
      `The answer for ${localId} could not be stored; the record stays "submitting" and becomes outcome_unknown ` +
        'at the next start. Do not resend: check the withdrawal with support first.',
      { localId, reason: e instanceof Error ? e.name : 'unknown' },
    )
  }
  ctx.changed(record)
  return record
}

const EMPTY_INFO: WithdrawalErrorInfo = {
  kind: 'unknown',
  status: null,
  messageCode: null,
  denialCode: null,
  requestId: null,
}

/**
 * What a failed POST means for the money. Only answers that prove nothing was created are `rejected`; anything
 * else — including an error we did not foresee — is `outcome_unknown`.
 */
export function createVerdict(e: unknown): 'rejected' | 'outcome_unknown' {
  if (!(e instanceof ApiError)) return 'outcome_unknown'
  if (e.kind === 'outcome_unknown') return 'outcome_unknown'
  // The session could not be obtained (login/refresh failed): the POST itself never left.
  if (e.endpoint?.startsWith('auth/') || e.nothingSent) return 'rejected'
  switch (e.kind) {
    case 'business': // 520: final refusal
    case 'compliance': // 422: definitive
    case 'bad_request': // 400/413/415 and other 4xx
    case 'forbidden': // 403: stopped before the operation
    case 'unauthorized': // 401: stopped before the operation
    case 'rate_limited': // 429: stopped before the operation
    case 'maintenance': // 503 + Retry-After: nothing was created
    case 'route_not_found': // 404: no operation matched
    case 'network': // the client only uses `network` for a create when nothing was sent
      return 'rejected'
    default:
      // `server` and `invalid_response` are classified as outcome_unknown by the client for creates; if one
      // still arrives here we cannot tell whether the withdrawal exists.
      return 'outcome_unknown'
  }
}

/** The error as the ledger keeps it: codes and ids, never tokens (ApiError carries none). */
export function errorInfo(e: unknown): WithdrawalErrorInfo {
  if (!(e instanceof ApiError)) {
    return { ...EMPTY_INFO, kind: 'unexpected', message: e instanceof Error ? e.name : typeof e }
  }
  const info: WithdrawalErrorInfo = {
    kind: e.kind,
    status: e.status,
    messageCode: e.messageCode ?? null,
    denialCode: e.denialCode ?? null,
    requestId: e.requestId,
    message: e.errorMessage ?? null,
  }
  const extra: Record<string, unknown> = {
    nonce: e.nonce,
    code: e.code,
    endpoint: e.endpoint,
    denialMessage: e.denialMessage,
    supportReference: e.supportReference,
    retryAfterSeconds: e.retryAfterSeconds,
    causeCode: e.causeCode,
    createdId: e.createdId,
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) info[k] = v
  return info
}
