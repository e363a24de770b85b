/**
 * The operator's resolution of an `outcome_unknown` record (docs/adr/0004-an-unknown-outcome-is-resolved-by-a-person.md): link the withdrawal id support found, or
 * declare that the withdrawal was never created. The ledger audits both. A link is verified first with one
 * GET /withdraw-status: an id the API does not know, or one that pays another Pix key, is refused and nothing is
 * written — a wrong link would show someone else's funding instructions under this record.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { ApiResult, DepixClient, WithdrawalStatus } from '../api'
import type { LedgerStore } from '../ledger/ports'
import type { LiquidNetwork } from '../liquid'
import { ledgerCall, WithdrawalError } from './errors'
import { storeStatus } from './observe'
import { isRemoteNotFound } from './tracker'
import type { UnknownResolutionInput } from './types'

export interface ResolveCtx {
  store: LedgerStore
  /** A team ledger: every record is the account's, whichever desk (profile) created it. */
  shared: boolean
  client: DepixClient
  operator: string
  profile: string
  network: LiquidNetwork
  now: () => number
  changed: (record: WithdrawalRecord) => void
  opened: (localId: string) => void
}

async function mustBeUnknown(ctx: ResolveCtx, localId: string): Promise<WithdrawalRecord> {
  const rec = await ctx.store.get(localId)
  if (rec === undefined)
    throw new WithdrawalError('not_found', `No withdrawal record ${localId}.`, { localId })
  if (!ctx.shared && rec.profile !== ctx.profile) {
    throw new WithdrawalError('other_profile', `${localId} belongs to profile ${rec.profile}.`, { localId })
  }
  if (rec.localState !== 'outcome_unknown') {
    throw new WithdrawalError('illegal_state', `${localId} is ${rec.localState}, not outcome_unknown.`, {
      localId,
    })
  }
  return rec
}

const samePixKey = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase()

export async function resolveUnknown(
  ctx: ResolveCtx,
  localId: string,
  r: UnknownResolutionInput,
): Promise<WithdrawalRecord> {
  const rec = await mustBeUnknown(ctx, localId)
  if ('notCreated' in r) {
    if (r.notCreated !== true)
      throw new WithdrawalError('invalid_input', 'notCreated must be true.', { localId })
    const done = await ledgerCall(localId, () =>
      ctx.store.resolveUnknown(localId, { notCreated: true }, ctx.operator),
    )
    ctx.changed(done)
    return done
  }

  const withdrawalId = typeof r.withdrawalId === 'string' ? r.withdrawalId.trim() : ''
  if (withdrawalId === '' || withdrawalId.length > 200) {
    throw new WithdrawalError('invalid_input', 'A withdrawal id is required.', { localId })
  }
  const other = await ctx.store.findByRemoteId(withdrawalId)
  if (other !== undefined && other.localId !== localId) {
    throw new WithdrawalError('remote_id_in_use', `${withdrawalId} is already linked to ${other.localId}.`, {
      localId,
    })
  }

  let res: ApiResult<WithdrawalStatus>
  try {
    res = await ctx.client.withdrawStatus(withdrawalId)
  } catch (e) {
    if (isRemoteNotFound(e)) {
      throw new WithdrawalError('remote_not_found', `The API does not know withdrawal ${withdrawalId}.`, {
        localId,
      })
    }
    throw e
  }
  if (res.data.id !== withdrawalId) {
    throw new WithdrawalError(
      'remote_mismatch',
      `The API answered for ${res.data.id}, not ${withdrawalId}.`,
      {
        localId,
        reason: 'id',
      },
    )
  }
  if (typeof res.data.pixKey === 'string' && !samePixKey(res.data.pixKey, rec.pixKey)) {
    throw new WithdrawalError(
      'remote_mismatch',
      `Withdrawal ${withdrawalId} pays another Pix key than this record; it cannot be this record's withdrawal.`,
      { localId, reason: 'pix_key' },
    )
  }

  // Re-checked inside the ledger's transaction: another resolution during the await is refused there.
  await ledgerCall(localId, () =>
    ctx.store.resolveUnknown(
      localId,
      {
        withdrawalId,
        note: `verified with GET /withdraw-status, request id ${res.requestId ?? 'none'}, status ${res.data.status}`,
      },
      ctx.operator,
    ),
  )
  const stored = await ledgerCall(localId, () => storeStatus(ctx, localId, res, ctx.now()))
  ctx.opened(localId)
  ctx.changed(stored.record)
  return stored.record
}
