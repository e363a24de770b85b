/**
 * The operator's decisions about deposits the app cannot settle alone, each checked with one GET /deposit-status
 * before anything is written:
 * - an `outcome_unknown` record is linked to the deposit id support (or the reconciliation) found, or declared
 *   not created. A link is refused when the API does not know the id, answers for another one, or reports another
 *   amount: a wrong link would show someone else's QR under this record;
 * - a deposit made outside the app (reconciliation) is imported for tracking, marked as such.
 */
import type { DepositRecord } from '../../shared/deposit-record'
import type { ApiResult, DepixClient, DepositStatus } from '../api'
import type { DepositStore } from '../ledger/deposit-store'
import { DepositError, depositStoreCall } from './errors'
import { storeDepositStatus } from './observe'
import { isDepositNotFound } from './tracker'

export interface DepositResolveCtx {
  store: DepositStore
  /** A team ledger is one account's: every desk's deposits are this desk's to resolve. */
  shared?: boolean
  client: Pick<DepixClient, 'depositStatus'>
  operator: string
  profile: string
  now: () => number
  changed: (record: DepositRecord) => void
  opened: (localId: string) => void
}

export type DepositResolutionInput = { depositId: string } | { notCreated: true }

async function statusOf(
  ctx: DepositResolveCtx,
  id: string,
  localId?: string,
): Promise<ApiResult<DepositStatus>> {
  let res: ApiResult<DepositStatus>
  try {
    res = await ctx.client.depositStatus(id)
  } catch (e) {
    if (isDepositNotFound(e)) {
      throw new DepositError(
        'remote_not_found',
        `The API does not know deposit ${id}.`,
        localId ? { localId } : {},
      )
    }
    throw e
  }
  if (res.data.qrId !== id) {
    throw new DepositError('remote_mismatch', `The API answered for ${res.data.qrId}, not ${id}.`, {
      ...(localId ? { localId } : {}),
      reason: 'id',
    })
  }
  return res
}

export async function resolveUnknownDeposit(
  ctx: DepositResolveCtx,
  localId: string,
  r: DepositResolutionInput,
): Promise<DepositRecord> {
  const rec = await ctx.store.get(localId)
  if (rec === undefined) throw new DepositError('not_found', `No deposit record ${localId}.`, { localId })
  if (!ctx.shared && rec.profile !== ctx.profile) {
    throw new DepositError('other_profile', `${localId} belongs to profile ${rec.profile}.`, { localId })
  }
  if (rec.localState !== 'outcome_unknown') {
    throw new DepositError('illegal_state', `${localId} is ${rec.localState}, not outcome_unknown.`, {
      localId,
    })
  }
  if ('notCreated' in r) {
    if (r.notCreated !== true)
      throw new DepositError('invalid_input', 'notCreated must be true.', { localId })
    const done = await depositStoreCall(localId, () =>
      ctx.store.resolveUnknown(localId, { notCreated: true }, ctx.operator),
    )
    ctx.changed(done)
    return done
  }
  const depositId = typeof r.depositId === 'string' ? r.depositId.trim() : ''
  if (depositId === '' || depositId.length > 200) {
    throw new DepositError('invalid_input', 'A deposit id is required.', { localId })
  }
  const other = await ctx.store.findByRemoteId(ctx.profile, depositId)
  if (other !== undefined && other.localId !== localId) {
    throw new DepositError('remote_id_in_use', `${depositId} is already linked to ${other.localId}.`, {
      localId,
    })
  }
  const res = await statusOf(ctx, depositId, localId)
  const value = res.data.valueInCents
  if (typeof value === 'number' && value !== rec.amountCents) {
    throw new DepositError(
      'remote_mismatch',
      `Deposit ${depositId} is for ${value} cents, this record asked for ${rec.amountCents}: it cannot be this record's deposit.`,
      { localId, reason: 'amount' },
    )
  }
  await depositStoreCall(localId, () =>
    ctx.store.resolveUnknown(
      localId,
      {
        depositId,
        note: `verified with GET /deposit-status, request id ${res.requestId ?? 'none'}, status ${res.data.status}`,
      },
      ctx.operator,
    ),
  )
  const stored = await depositStoreCall(localId, () => storeDepositStatus(ctx.store, localId, res, ctx.now()))
  ctx.opened(localId)
  ctx.changed(stored.record)
  return stored.record
}

/** Imports a deposit the reconciliation found at the service (made outside the app), proved by one status read. */
export async function importOutsideDeposit(ctx: DepositResolveCtx, qrId: string): Promise<DepositRecord> {
  const id = qrId.trim()
  if (id === '' || id.length > 200) throw new DepositError('invalid_input', 'A deposit id is required.')
  const existing = await ctx.store.findByRemoteId(ctx.profile, id)
  if (existing !== undefined) {
    throw new DepositError('remote_id_in_use', `${id} is already in the ledger as ${existing.localId}.`, {
      localId: existing.localId,
    })
  }
  const res = await statusOf(ctx, id)
  const raw =
    typeof res.raw === 'object' && res.raw !== null && !Array.isArray(res.raw)
      ? (res.raw as Record<string, unknown>)
      : (res.data as Record<string, unknown>)
  const record = await depositStoreCall(id, () =>
    ctx.store.importOutside(
      {
        profile: ctx.profile,
        remoteId: id,
        status: res.data.status,
        body: raw,
        requestId: res.requestId,
        nonce: res.nonce,
      },
      ctx.operator,
    ),
  )
  ctx.opened(record.localId)
  ctx.changed(record)
  return record
}
