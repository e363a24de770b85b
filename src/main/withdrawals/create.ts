/**
 * The withdrawal create flow (DESIGN §4): validate → duplicate guard → the shared journaled create
 * (journal/create.ts: intent, journal `submitting`, POST /withdraw once, store the outcome) → funding facts.
 * Nothing here ever sends the POST a second time; an unclear answer becomes `outcome_unknown` and waits for the
 * operator.
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
import type { AmountKind, WithdrawalRecord } from '../../shared/withdrawal-record'
import { normalizeReferences, type PaymentReferences } from '../../shared/payment-references'
import type { ExpectedPayee, Payee } from '../../shared/payee'
import type { DepixClient, WithdrawCreated } from '../api'
import { journaledCreate } from '../journal/create'
import type { Ledger } from '../ledger'
import { checkLiquidAddress, type LiquidAddressCheck, type LiquidNetwork } from '../liquid'
import { SERVICE_FLAGS, WITHDRAWAL_WORDS, WithdrawalError, withdrawalRefusal } from './errors'
import type { CreateIntents } from './intents'
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
 * The shared journaled create (journal/create.ts) with the withdrawal's own body, checks and follow-up. Everything
 * before its first `await` runs synchronously, so two concurrent calls cannot both pass the intent.
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
  const result = await journaledCreate<WithdrawalRecord, WithdrawCreated>({
    kind: 'withdrawal',
    words: WITHDRAWAL_WORDS,
    refuse: withdrawalRefusal,
    client: ctx.client,
    endpoint: 'withdraw',
    ledgerFile: ctx.ledger.file,
    profile: ctx.profile,
    now: ctx.now,
    store: {
      insertSubmitting: () =>
        ctx.ledger.insertSubmitting(
          {
            // A payment run commits the local id on its row before calling create (crash recovery by absence).
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
        ),
      markCreated: (localId, outcome) => ctx.ledger.markCreated(localId, outcome),
      markRejected: (localId, info) => ctx.ledger.markRejected(localId, info),
      markOutcomeUnknown: (localId, info, reason) => ctx.ledger.markOutcomeUnknown(localId, info, reason),
    },
    takeIntent: () =>
      ctx.intents.take(o.intentId, {
        profile: ctx.profile,
        // The intent binds what the review showed besides the body: references and the chosen payee.
        request: reviewed(p),
        similarNow: p.duplicates,
        confirmed: o.confirmedDuplicates ?? [],
      }),
    post: () => ctx.client.withdraw(p.request),
    outcomeOf: (res) => {
      const d = res.data
      return {
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
    },
    changed: ctx.changed,
    onError: ctx.onError,
    ...(ctx.beforePost ? { beforePost: ctx.beforePost } : {}),
  })
  return result.created ? afterCreated(ctx, result.record) : result.record
}

/** What follows a created withdrawal: the funding facts (one status read when the answer was minimal), flags. */
async function afterCreated(ctx: CreateCtx, created: WithdrawalRecord): Promise<WithdrawalRecord> {
  let record = created
  const localId = record.localId
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

export { createVerdict, errorInfo } from '../journal/create'
