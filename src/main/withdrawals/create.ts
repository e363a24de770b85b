/**
 * The withdrawal create flow (docs/adr/0002-journal-before-post.md): validate → duplicate guard → the shared journaled create
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
import type { NewWithdrawal } from '../ledger/sqlite'
import type { ApprovalsApi } from '../ledger/pg/approvals'
import type { LedgerStore } from '../ledger/ports'
import { checkLiquidAddress, type LiquidAddressCheck, type LiquidNetwork } from '../liquid'
import { SERVICE_FLAGS, WITHDRAWAL_WORDS, WithdrawalError, withdrawalRefusal } from './errors'
import type { CreateIntents } from './intents'
import { reviewFlags, storeStatus } from './observe'

export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000

export interface CreateCtx {
  store: LedgerStore
  /** Where a create's answer goes when the store cannot take it (journal/side-journal.ts); null: nowhere. */
  sideJournal: string | null
  /**
   * A team ledger: every record is the account's, whichever desk (profile) created it, so duplicates and records
   * are looked for across profiles.
   */
  shared: boolean
  /** The team's four-eyes approvals; absent on the embedded ledger. */
  approvals?: Pick<ApprovalsApi, 'needsApproval'>
  client: DepixClient
  operator: string
  network: LiquidNetwork
  profile: string
  partnerRateBps: number
  now: () => number
  intents: CreateIntents
  /** The payee book (main/payees): a draft naming a payee is checked against it and keeps its name and document. */
  payees?: { byId(id: string): Payee | undefined | Promise<Payee | undefined> }
  beforePost?: (record: WithdrawalRecord) => void | Promise<void>
  /** The record changed (emit to the UI). */
  changed: (record: WithdrawalRecord) => void
  /** A record became open: the tracker should know. */
  opened: (localId: string) => void
  onError: (e: unknown, localId: string | null) => void
}

export interface Prepared {
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
async function payeeOf(
  ctx: CreateCtx,
  draft: WithdrawalDraft,
  request: WithdrawRequest,
): Promise<ExpectedPayee | null> {
  if (draft.payeeId === undefined) return null
  // A team's book answers asynchronously (the team ledger), a desk's synchronously.
  const payee = await ctx.payees?.byId(draft.payeeId)
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

/**
 * The duplicate guard's reach: the last 24 h, on this profile (embedded ledger, by its own clock) or the whole
 * team's ledger (by the server's clock: `windowMs`, the database decides). Compared by what the payee receives:
 * the rate turns a "DePix a enviar" amount into its payout.
 */
function similarScope(ctx: CreateCtx): {
  sinceIso: string
  windowMs?: number
  profile?: string
  partnerRateBps: number
} {
  const sinceIso = new Date(ctx.now() - DUPLICATE_WINDOW_MS).toISOString()
  const partnerRateBps = ctx.partnerRateBps
  return ctx.shared
    ? { sinceIso, windowMs: DUPLICATE_WINDOW_MS, partnerRateBps }
    : { sinceIso, profile: ctx.profile, partnerRateBps }
}

export async function prepare(ctx: CreateCtx, draft: WithdrawalDraft): Promise<Prepared> {
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
  const duplicates = await ctx.store.findRecentSimilar({
    pixKey: request.pixKey,
    amountKind,
    amountCents,
    ...similarScope(ctx),
  })
  const expectedPayee = await payeeOf(ctx, parsed.data, request)
  const references = normalizeReferences(parsed.data.references)
  return { request, amountKind, amountCents, refund, duplicates, references, expectedPayee }
}

/** The refund address as the body carries it: what the team ledger compares with its registered addresses. */
const refundIn = (p: Prepared): string | null => {
  const v: unknown = (p.request as Record<string, unknown>).refundAddress
  return typeof v === 'string' ? v : null
}

export async function quote(ctx: CreateCtx, draft: WithdrawalDraft): Promise<WithdrawalQuote> {
  const p = await prepare(ctx, draft)
  const needsApproval = ctx.approvals ? await ctx.approvals.needsApproval(p.amountCents, refundIn(p)) : false
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
    ...(needsApproval ? { needsApproval } : {}),
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
  /**
   * The payment run whose approval authorises this payment (a row of it): the team's per-payment approval does not
   * apply, the run's does, and the team ledger's database refuses the insert unless that run is approved and
   * creating this very row (PostgreSQL runs migration).
   */
  run?: string
}

/** The record the store inserts as `submitting` for a prepared payment. */
export function newWithdrawal(ctx: CreateCtx, p: Prepared, localId?: string): NewWithdrawal {
  return {
    // A payment run commits the local id on its row before calling create (crash recovery by absence).
    ...(localId === undefined ? {} : { localId }),
    profile: ctx.profile,
    request: p.request as Record<string, unknown>,
    pixKey: p.request.pixKey,
    amountKind: p.amountKind,
    amountCents: p.amountCents,
    flags: p.duplicates.length > 0 ? [SERVICE_FLAGS.duplicateConfirmed] : [],
    ...(Object.keys(p.references).length > 0 ? { references: p.references } : {}),
    ...(p.expectedPayee ? { expectedPayee: p.expectedPayee } : {}),
  }
}

export function refundMustBeValid(p: Prepared): void {
  if (!p.refund.ok) {
    throw new WithdrawalError('refund_address_invalid', `Refund address refused: ${p.refund.message}`, {
      fields: { refundAddress: p.refund.reason },
      reason: p.refund.reason,
    })
  }
}

/** The review's intent, checked against what is about to be sent and consumed (synchronous, one use). */
export function takeIntent(ctx: CreateCtx, p: Prepared, o: CreateAuthority): void {
  ctx.intents.take(o.intentId, {
    profile: ctx.profile,
    // The intent binds what the review showed besides the body: references and the chosen payee.
    request: reviewed(p),
    similarNow: p.duplicates,
    confirmed: o.confirmedDuplicates ?? [],
  })
}

export const APPROVAL_REQUIRED_TEXT = {
  'pt-BR':
    'Este pagamento está acima do limite da equipe: peça a aprovação de outro analista antes de enviá-lo.',
  en: 'This payment is above the team’s limit: ask another analyst for approval before sending it.',
}

/**
 * The shared journaled create (journal/create.ts) with the withdrawal's own body, checks and follow-up. The intent
 * is taken synchronously right before the insert.
 */
export async function create(
  ctx: CreateCtx,
  draft: WithdrawalDraft,
  o: CreateAuthority,
): Promise<WithdrawalRecord> {
  const p = await prepare(ctx, draft)
  refundMustBeValid(p)
  if (
    o.run === undefined &&
    ctx.approvals &&
    (await ctx.approvals.needsApproval(p.amountCents, refundIn(p)))
  ) {
    throw new WithdrawalError('approval_required', 'This payment needs another analyst’s approval first.', {
      userMessage: APPROVAL_REQUIRED_TEXT,
    })
  }
  return journal(ctx, p, newWithdrawal(ctx, p, o.localId), { take: () => takeIntent(ctx, p, o) })
}

/**
 * The one journaled create of a prepared payment: the duplicate guard and the insert are one step of the store
 * (`createGuarded`: atomic across desks on the team ledger), then POST /withdraw once. `take` is the one-use
 * authority (the review's intent, or an approval), taken synchronously right before the insert.
 */
export async function journal(
  ctx: CreateCtx,
  p: Prepared,
  input: NewWithdrawal,
  auth: { take: () => void; approvalId?: string },
): Promise<WithdrawalRecord> {
  const result = await journaledCreate<WithdrawalRecord, WithdrawCreated>({
    kind: 'withdrawal',
    words: WITHDRAWAL_WORDS,
    refuse: withdrawalRefusal,
    client: ctx.client,
    endpoint: 'withdraw',
    sideJournal: ctx.sideJournal,
    profile: ctx.profile,
    now: ctx.now,
    store: {
      insertSubmitting: async () => {
        const guarded = await ctx.store.createGuarded(
          input,
          ctx.operator,
          // The similar records the operator confirmed do not count; one that appeared since (another desk's
          // create, or a concurrent one here) does.
          { ...similarScope(ctx), allow: p.duplicates.map((d) => d.localId) },
          auth.approvalId === undefined ? undefined : { approvalId: auth.approvalId },
        )
        if (guarded.kind === 'duplicate') {
          throw withdrawalRefusal(
            'duplicate_since_review',
            `${guarded.similar.length} similar withdrawal(s) appeared since the review (maybe on another desk): ` +
              'review again.',
            { duplicates: [...p.duplicates, ...guarded.similar] },
          )
        }
        return guarded.record
      },
      markCreated: (localId, outcome) => ctx.store.markCreated(localId, outcome),
      markRejected: (localId, info) => ctx.store.markRejected(localId, info),
      markOutcomeUnknown: (localId, info, reason) => ctx.store.markOutcomeUnknown(localId, info, reason),
    },
    takeIntent: auth.take,
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
      record = (await storeStatus(ctx, localId, status, ctx.now())).record
    } catch (e) {
      ctx.onError(e, localId)
    }
  }
  record = await reviewFlags(ctx, record)
  ctx.opened(localId)
  ctx.changed(record)
  return record
}

export { createVerdict, errorInfo } from '../journal/create'
