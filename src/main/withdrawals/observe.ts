/**
 * Storing a GET /withdraw-status answer, shared by the create flow, the operator's resolution and the tracker:
 * the ledger keeps the observation (and decides, by status rank, whether it is newer than what the record shows),
 * then the record's flags are reviewed against what the answer said.
 *
 * The answer is stored raw, as the service sent it; the client has read it field by field, so a field that broke
 * the contract was dropped alone (the ledger reads each field with its own type check too). Such an answer raises
 * `remote_fields_invalid` until a clean one arrives.
 */
import { RECORD_FLAGS, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { invalidStatusFields, type ApiResult, type WithdrawalStatus } from '../api'
import { SYSTEM_OPERATOR } from '../ledger/sqlite'
import type { LedgerStore } from '../ledger/ports'
import { checkLiquidAddress, type LiquidNetwork } from '../liquid'
import { SERVICE_FLAGS } from './errors'

export interface ObserveCtx {
  store: LedgerStore
  network: LiquidNetwork
}

export interface Stored {
  record: WithdrawalRecord
  /** Something the UI shows changed: a new observation or a flag. */
  changed: boolean
  /** Known fields of the answer that were ignored as invalid (`refund.txId` for nested ones). */
  invalidFields: string[]
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export async function storeStatus(
  ctx: ObserveCtx,
  localId: string,
  res: ApiResult<WithdrawalStatus>,
  observedAtMs: number,
): Promise<Stored> {
  const raw = isObject(res.raw) ? res.raw : (res.data as Record<string, unknown>)
  const invalid = invalidStatusFields(raw, res.data)
  // An unreadable status claims no change: the observation is filed under the status the record already shows
  // ('' when it has none, the ledger's "no status"), while its other fields still count.
  const status = res.data.status ?? (await ctx.store.get(localId))?.remoteStatus ?? ''
  const r = await ctx.store.recordObservation(localId, {
    status,
    body: raw,
    requestId: res.requestId,
    nonce: res.nonce,
    observedAt: new Date(observedAtMs).toISOString(),
  })
  const flag = SERVICE_FLAGS.remoteFieldsInvalid
  const reviewed = await reviewFlags(ctx, r.record, {
    remove: invalid.length > 0 ? [SERVICE_FLAGS.remoteNotFound] : [SERVICE_FLAGS.remoteNotFound, flag],
    add: invalid.length > 0 ? [flag] : [],
  })
  return { record: reviewed, changed: r.changed || reviewed !== r.record, invalidFields: invalid }
}

/**
 * Raises `deposit_address_invalid` when the record's deposit address is not a Liquid address of the profile's
 * network (a wrong address loses the funds: the record is never shown as payable). The flag is never lowered
 * automatically. `add`/`remove` apply other flags in the same audited write. Returns the record unchanged (same
 * object) when there is nothing to do.
 */
export async function reviewFlags(
  ctx: ObserveCtx,
  record: WithdrawalRecord,
  o: { add?: readonly string[]; remove?: readonly string[] } = {},
): Promise<WithdrawalRecord> {
  const wanted = new Set(record.flags)
  for (const f of o.remove ?? []) wanted.delete(f)
  for (const f of o.add ?? []) wanted.add(f)
  if (record.depositAddress !== null && !checkLiquidAddress(record.depositAddress, ctx.network).ok) {
    wanted.add(RECORD_FLAGS.depositAddressInvalid)
  }
  const same = wanted.size === record.flags.length && record.flags.every((f) => wanted.has(f))
  if (same) return record
  return ctx.store.setFlags(record.localId, [...wanted], SYSTEM_OPERATOR)
}
