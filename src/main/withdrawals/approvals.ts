/**
 * Four-eyes approval of a withdrawal on the team ledger (issue #16). The analyst asks for it with the reviewed
 * draft and its intent (the same one-use check as a create, so what is approved is exactly what was reviewed); the
 * database keeps the exact body and refuses a decision by the requester (ledger/pg/approvals.ts). Sending an
 * approved payment is the one journaled create (create.ts `journal`) with the approval's stored body, profile and
 * local id: the database accepts the insert only for an approved request with that very body, and only once (the
 * local id is the record's).
 */
import { withdrawRequestSchema, type WithdrawalDraft } from '../../shared/withdrawal'
import type { AmountKind, WithdrawalRecord } from '../../shared/withdrawal-record'
import type { Approval, ApprovalsApi } from '../ledger/pg/approvals'
import { checkLiquidAddress } from '../liquid'
import {
  DUPLICATE_WINDOW_MS,
  journal,
  newWithdrawal,
  prepare,
  refundMustBeValid,
  takeIntent,
  type CreateAuthority,
  type CreateCtx,
  type Prepared,
} from './create'
import { WithdrawalError } from './errors'

export type ApprovalCtx = CreateCtx & { approvals: ApprovalsApi }

/** Checks the review's intent like a create does (consuming it), then files the request. */
export async function requestApproval(
  ctx: ApprovalCtx,
  draft: WithdrawalDraft,
  o: CreateAuthority,
  note?: string,
): Promise<Approval> {
  const p = await prepare(ctx, draft)
  refundMustBeValid(p)
  takeIntent(ctx, p, o)
  return ctx.approvals.requestApproval(newWithdrawal(ctx, p), note)
}

const notSendable = (id: string, why: 'not_approved' | 'already_sent'): WithdrawalError =>
  new WithdrawalError(
    'approval_not_sendable',
    why === 'already_sent'
      ? `The payment of approval ${id} was already sent.`
      : `Approval ${id} is not approved.`,
    {
      reason: why,
      userMessage:
        why === 'already_sent'
          ? {
              'pt-BR': 'Este pagamento aprovado já foi enviado; ele não é enviado de novo.',
              en: 'This approved payment was already sent; it is not sent again.',
            }
          : {
              'pt-BR': 'Só um pagamento aprovado por outro analista pode ser enviado.',
              en: 'Only a payment another analyst approved can be sent.',
            },
    },
  )

/** The approval's stored body as a prepared payment: nothing of it comes from the renderer. */
function preparedOf(ctx: CreateCtx, a: Approval): Prepared {
  const parsed = withdrawRequestSchema.safeParse(a.request)
  if (!parsed.success) throw new WithdrawalError('invalid_input', `Approval ${a.id} holds an invalid body.`)
  const request = parsed.data
  const amountKind: AmountKind = a.amountKind
  return {
    request,
    amountKind,
    amountCents: a.amountCents,
    refund: checkLiquidAddress(request.refundAddress ?? '', ctx.network),
    duplicates: [],
    references: a.references ?? {},
    expectedPayee: a.expectedPayee ?? null,
  }
}

/**
 * Sends an approved payment once. Refused unless approved and not yet sent; two sends at once on this desk are
 * stopped by `sending` (taken synchronously), on two desks by the database (the approval's local id is unique).
 */
export async function sendApproved(
  ctx: ApprovalCtx,
  sending: Set<string>,
  id: string,
): Promise<WithdrawalRecord> {
  const a = await ctx.approvals.getApproval(id)
  if (a === undefined) throw new WithdrawalError('not_found', `No approval ${id}.`)
  if (a.state !== 'approved') throw notSendable(id, 'not_approved')
  if ((await ctx.store.get(a.localId)) !== undefined) throw notSendable(id, 'already_sent')
  // Similar records older than the request were there when the requester reviewed it (and confirmed them): they
  // do not stop the send; one created since does.
  const similar = await ctx.store.findRecentSimilar({
    pixKey: a.pixKey,
    amountKind: a.amountKind,
    amountCents: a.amountCents,
    sinceIso: new Date(ctx.now() - DUPLICATE_WINDOW_MS).toISOString(),
    partnerRateBps: ctx.partnerRateBps,
  })
  const p = { ...preparedOf(ctx, a), duplicates: similar.filter((r) => r.createdAt <= a.requestedAt) }
  refundMustBeValid(p)
  const input = {
    localId: a.localId,
    profile: a.profile,
    request: a.request,
    pixKey: a.pixKey,
    amountKind: a.amountKind,
    amountCents: a.amountCents,
    ...(a.references && Object.keys(a.references).length > 0 ? { references: a.references } : {}),
    ...(a.expectedPayee ? { expectedPayee: a.expectedPayee } : {}),
  }
  let took = false
  try {
    return await journal(ctx, p, input, {
      approvalId: a.id,
      take: () => {
        if (sending.has(id)) throw notSendable(id, 'already_sent')
        sending.add(id)
        took = true
      },
    })
  } finally {
    // Inserted: the record now says "sent". Not inserted (server down, refused): it may be sent again.
    if (took) sending.delete(id)
  }
}
