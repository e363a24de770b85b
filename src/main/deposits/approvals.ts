/**
 * Four-eyes approval of a top-up on the team ledger (issue #24, migration 15): the same approvals as payments
 * (withdrawals/approvals.ts), of kind `deposit`. The analyst asks for it with the reviewed draft and its intent (the
 * same one-use check as a create, so what is approved is exactly what was reviewed); the database keeps the exact
 * body and refuses a decision by the requester. Creating an approved top-up is the one journaled create
 * (create.ts `journalDeposit`) with the approval's stored body, profile and local id: the database accepts it only
 * for an approved request of that very body, and only once. POST /deposit is never retried by itself.
 */
import { randomUUID } from 'node:crypto'
import { depositRequestSchema, type DepositDraft } from '../../shared/deposit-draft'
import { DEPOSIT_ID_PREFIX, type DepositRecord } from '../../shared/deposit-record'
import type { Approval, ApprovalsApi } from '../ledger/pg/approvals'
import { checkLiquidAddress } from '../liquid'
import {
  addressMustBeValid,
  journalDeposit,
  prepare,
  takeIntent,
  DEPOSIT_DUPLICATE_WINDOW_MS,
  type DepositCreateAuthority,
  type DepositCreateCtx,
  type Prepared,
} from './create'
import { DepositError } from './errors'

export type TopUpApprovalCtx = DepositCreateCtx & { approvals: ApprovalsApi }

/** Checks the review's intent like a create does (consuming it), then files the request. */
export async function requestTopUpApproval(
  ctx: TopUpApprovalCtx,
  draft: DepositDraft,
  o: DepositCreateAuthority,
  note?: string,
): Promise<Approval> {
  const p = await prepare(ctx, draft)
  addressMustBeValid(p)
  takeIntent(ctx, p, o)
  return ctx.approvals.requestTopUpApproval(
    {
      localId: `${DEPOSIT_ID_PREFIX}${randomUUID()}`,
      profile: ctx.profile,
      request: { ...p.request },
    },
    note,
  )
}

const notSendable = (id: string, why: 'not_approved' | 'already_sent'): DepositError =>
  new DepositError(
    'approval_not_sendable',
    why === 'already_sent'
      ? `The top-up of approval ${id} was already created.`
      : `Approval ${id} is not approved.`,
    {
      reason: why,
      userMessage:
        why === 'already_sent'
          ? {
              'pt-BR': 'Esta compra de DePix aprovada já foi criada; ela não é criada de novo.',
              en: 'This approved top-up was already created; it is not created again.',
            }
          : {
              'pt-BR': 'Só uma compra de DePix aprovada por outro analista pode ser criada.',
              en: 'Only a top-up another analyst approved can be created.',
            },
    },
  )

/** The approval's stored body as a prepared top-up: nothing of it comes from the renderer. */
function preparedOf(ctx: DepositCreateCtx, a: Approval): Prepared {
  const parsed = depositRequestSchema.safeParse(a.request)
  if (!parsed.success) throw new DepositError('invalid_input', `Approval ${a.id} holds an invalid body.`)
  return {
    request: parsed.data,
    address: checkLiquidAddress(parsed.data.depixAddress, ctx.network),
    duplicates: [],
    sinceIso: new Date(ctx.now() - DEPOSIT_DUPLICATE_WINDOW_MS).toISOString(),
  }
}

/**
 * Creates an approved top-up once. Refused unless approved, of kind top-up and not yet created; two sends at once
 * on this desk are stopped by `sending` (taken synchronously), on two desks by the database (one per approval).
 */
export async function sendApprovedTopUp(
  ctx: TopUpApprovalCtx,
  sending: Set<string>,
  id: string,
): Promise<DepositRecord> {
  const a = await ctx.approvals.getApproval(id)
  if (a === undefined || a.kind !== 'deposit')
    throw new DepositError('not_found', `No top-up approval ${id}.`)
  if (a.state !== 'approved') throw notSendable(id, 'not_approved')
  if ((await ctx.store.get(a.localId)) !== undefined) throw notSendable(id, 'already_sent')
  const base = preparedOf(ctx, a)
  addressMustBeValid(base)
  // Similar top-ups older than the request were there when the requester reviewed it (and confirmed them): they
  // do not stop the create; one created since does.
  const similar = await ctx.store.findRecentSimilar({
    profile: a.profile,
    amountCents: base.request.amountInCents,
    depixAddress: base.request.depixAddress,
    sinceIso: base.sinceIso,
    windowMs: DEPOSIT_DUPLICATE_WINDOW_MS,
  })
  const p = { ...base, duplicates: similar.filter((r) => r.createdAt <= a.requestedAt) }
  let took = false
  try {
    return await journalDeposit({ ...ctx, profile: a.profile }, p, {
      localId: a.localId,
      approvalId: a.id,
      take: () => {
        if (sending.has(id)) throw notSendable(id, 'already_sent')
        sending.add(id)
        took = true
      },
    })
  } finally {
    if (took) sending.delete(id)
  }
}
