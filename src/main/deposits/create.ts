/**
 * The top-up create flow ("Comprar DePix"): validate the draft → the destination must be a Liquid address of the
 * profile's network (Arkade and Spark refused: withdrawals are Liquid-only, docs/API-CONTRACT.md#s1-4) → duplicate guard → the
 * shared journaled create (journal/create.ts: intent, journal `submitting`, POST /deposit once, store the outcome).
 * Never resent: an unclear answer becomes `outcome_unknown` and waits for the operator.
 */
import type { DepositQuote } from '../../shared/channels-deposits'
import {
  depositDraftFields,
  depositDraftSchema,
  toDepositRequest,
  type DepositDraft,
  type DepositRequestBody,
} from '../../shared/deposit-draft'
import { DEPOSIT_FLAGS, type DepositRecord } from '../../shared/deposit-record'
import type { DepixClient, DepositCreated } from '../api'
import { journaledCreate } from '../journal/create'
import type { OneUseIntents } from '../journal/intents'
import type { DepositStore } from '../ledger/deposit-store'
import type { ApprovalsApi } from '../ledger/pg/approvals'
import { checkLiquidAddress, type LiquidAddressCheck, type LiquidNetwork } from '../liquid'
import { DEPOSIT_WORDS, DepositError, approvalRequired, depositRefusal } from './errors'

export const DEPOSIT_DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000

export interface DepositCreateCtx {
  store: DepositStore
  /** Where a create's answer goes when the ledger cannot store it (journal/side-journal.ts); null: nowhere. */
  sideJournal: string | null
  client: DepixClient
  operator: string
  network: LiquidNetwork
  profile: string
  now: () => number
  intents: OneUseIntents<DepositRecord>
  /** The team's four-eyes (migration 15); absent on this computer's ledger, which has no approvals. */
  approvals?: Pick<ApprovalsApi, 'topUpNeedsApproval'>
  beforePost?: (record: DepositRecord) => void | Promise<void>
  changed: (record: DepositRecord) => void
  opened: (localId: string) => void
  onError: (e: unknown, localId: string | null) => void
}

export interface Prepared {
  request: DepositRequestBody
  address: LiquidAddressCheck
  duplicates: DepositRecord[]
  /** The start of the duplicate window, as looked up. */
  sinceIso: string
}

export async function prepare(ctx: DepositCreateCtx, draft: DepositDraft): Promise<Prepared> {
  const parsed = depositDraftSchema.safeParse(draft)
  if (!parsed.success) {
    throw new DepositError('invalid_draft', 'The top-up draft is invalid.', {
      fields: depositDraftFields(parsed.error.issues),
    })
  }
  const address = checkLiquidAddress(parsed.data.depixAddress, ctx.network)
  // The address the Liquid helper validated is the one sent (a pasted URI becomes the plain address it names).
  const request = toDepositRequest(
    parsed.data,
    address.ok ? address.address : parsed.data.depixAddress.trim(),
  )
  const sinceIso = new Date(ctx.now() - DEPOSIT_DUPLICATE_WINDOW_MS).toISOString()
  const duplicates = address.ok
    ? await ctx.store.findRecentSimilar({
        profile: ctx.profile,
        amountCents: request.amountInCents,
        depixAddress: request.depixAddress,
        sinceIso,
        // The team ledger bounds the window on the server's clock; the desk ledger by sinceIso, on its own.
        windowMs: DEPOSIT_DUPLICATE_WINDOW_MS,
      })
    : []
  return { request, address, duplicates, sinceIso }
}

function addressView(a: LiquidAddressCheck): DepositQuote['address'] {
  return a.ok
    ? { ok: true, address: a.address, network: a.network, confidential: a.confidential }
    : { ok: false, reason: a.reason, message: a.message }
}

/** Whether this top-up waits for another analyst's approval on the team ledger (never on this computer's). */
export async function needsApproval(ctx: DepositCreateCtx, p: Prepared): Promise<boolean> {
  return ctx.approvals && p.address.ok
    ? ctx.approvals.topUpNeedsApproval(p.request.amountInCents, p.request.depixAddress)
    : false
}

/** What would be sent, with a one-use intent for exactly that; writes nothing, sends nothing. */
export async function quoteDeposit(ctx: DepositCreateCtx, draft: DepositDraft): Promise<DepositQuote> {
  const p = await prepare(ctx, draft)
  return {
    request: p.request as unknown as Record<string, unknown>,
    address: addressView(p.address),
    duplicates: p.duplicates,
    needsApproval: await needsApproval(ctx, p),
    intent: ctx.intents.issue(
      ctx.profile,
      p.request,
      p.duplicates.map((d) => d.localId),
    ),
  }
}

export interface DepositCreateAuthority {
  intentId: string
  confirmedDuplicates?: readonly string[]
}

/** The destination must be a Liquid address of the profile's network. */
export function addressMustBeValid(p: Prepared): void {
  if (!p.address.ok) {
    throw new DepositError('address_invalid', `Destination refused: ${p.address.message}`, {
      fields: { depixAddress: p.address.reason },
      reason: p.address.reason,
    })
  }
}

/** The review's one-use intent, taken for exactly this body (the create's authority, or a request's). */
export function takeIntent(ctx: DepositCreateCtx, p: Prepared, o: DepositCreateAuthority): void {
  ctx.intents.take(o.intentId, {
    profile: ctx.profile,
    request: p.request,
    similarNow: p.duplicates,
    confirmed: o.confirmedDuplicates ?? [],
  })
}

export async function createDeposit(
  ctx: DepositCreateCtx,
  draft: DepositDraft,
  o: DepositCreateAuthority,
): Promise<DepositRecord> {
  const p = await prepare(ctx, draft)
  addressMustBeValid(p)
  if (await needsApproval(ctx, p)) throw approvalRequired()
  return journalDeposit(ctx, p, { take: () => takeIntent(ctx, p, o) })
}

/**
 * The one journaled create of a prepared top-up: duplicate guard and insert as one step of the store, then
 * POST /deposit once. `take` is the one-use authority (the review's intent, or an approval), taken synchronously
 * right before the insert; `localId`/`approvalId`: an approved top-up's (the database accepts only that body).
 */
export async function journalDeposit(
  ctx: DepositCreateCtx,
  p: Prepared,
  o: { take: () => void; localId?: string; approvalId?: string },
): Promise<DepositRecord> {
  const result = await journaledCreate<DepositRecord, DepositCreated>({
    kind: 'deposit',
    words: DEPOSIT_WORDS,
    refuse: depositRefusal,
    client: ctx.client,
    endpoint: 'deposit',
    sideJournal: ctx.sideJournal,
    profile: ctx.profile,
    now: ctx.now,
    store: {
      insertSubmitting: async () => {
        const guarded = await ctx.store.createGuarded(
          {
            ...(o.localId === undefined ? {} : { localId: o.localId }),
            profile: ctx.profile,
            request: p.request as unknown as Record<string, unknown>,
            flags: p.duplicates.length > 0 ? [DEPOSIT_FLAGS.duplicateConfirmed] : [],
          },
          ctx.operator,
          // The similar top-ups the operator confirmed do not count; one that appeared since (another desk's
          // create, or a concurrent one here) does.
          {
            sinceIso: p.sinceIso,
            windowMs: DEPOSIT_DUPLICATE_WINDOW_MS,
            allow: p.duplicates.map((d) => d.localId),
          },
          o.approvalId === undefined ? undefined : { approvalId: o.approvalId },
        )
        if (guarded.kind === 'duplicate') {
          throw depositRefusal(
            'duplicate_since_review',
            `${guarded.similar.length} similar top-up(s) appeared since the review (maybe on another desk): ` +
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
    takeIntent: o.take,
    post: () => ctx.client.deposit(p.request),
    outcomeOf: (res) => {
      const d = res.data
      return {
        remoteId: d.id,
        // The whole answer, raw: what it carries beyond `id` is not in the contract, so all of it is kept.
        createResponse: (typeof res.raw === 'object' && res.raw !== null ? res.raw : d) as Record<
          string,
          unknown
        >,
        requestId: res.requestId,
        nonce: res.nonce,
        expiration: d.expiration ?? null,
        status: d.status ?? null,
      }
    },
    changed: ctx.changed,
    onError: ctx.onError,
    ...(ctx.beforePost ? { beforePost: ctx.beforePost } : {}),
  })
  if (result.created) ctx.opened(result.record.localId)
  return result.record
}
