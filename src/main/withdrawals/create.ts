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
  return { request, amountKind, amountCents, refund, duplicates }
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
    intent: ctx.intents.issue(
      ctx.profile,
      p.request,
      p.duplicates.map((d) => d.localId),
    ),
  }
}

export interface CreateAuthority {
  /** The intent the review issued (`quote().intent.id`). */
  intentId: string
  /** Local ids of the similar records the operator confirmed as not duplicates. */
  confirmedDuplicates?: readonly string[]
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
            profile: ctx.profile,
            request: p.request as Record<string, unknown>,
            pixKey: p.request.pixKey,
            amountKind: p.amountKind,
            amountCents: p.amountCents,
            flags: p.duplicates.length > 0 ? [SERVICE_FLAGS.duplicateConfirmed] : [],
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
        request: p.request,
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
