/**
 * Storing a GET /deposit-status answer, shared by the tracker, the operator's "check now", a resolution and an
 * import: the ledger keeps the observation (and decides by status rank whether it is newer), and the
 * `remote_not_found` flag is lowered by a good answer. The answer is stored raw, as the service sent it.
 */
import { DEPOSIT_FLAGS, type DepositRecord } from '../../shared/deposit-record'
import type { ApiResult, DepositStatus } from '../api'
import { SYSTEM_OPERATOR } from '../ledger/sqlite'
import type { DepositStore } from '../ledger/deposit-store'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export interface StoredDeposit {
  record: DepositRecord
  /** Something the UI shows changed: a new observation or a flag. */
  changed: boolean
  /** Flags the answer raised (`med_reversal`, …). */
  raised: string[]
}

export async function storeDepositStatus(
  store: DepositStore,
  localId: string,
  res: ApiResult<DepositStatus>,
  observedAtMs: number,
): Promise<StoredDeposit> {
  const raw = isObject(res.raw) ? res.raw : (res.data as Record<string, unknown>)
  const r = await store.recordObservation(localId, {
    status: res.data.status,
    body: raw,
    requestId: res.requestId,
    nonce: res.nonce,
    observedAt: new Date(observedAtMs).toISOString(),
  })
  const record = await setDepositFlags(store, r.record, { remove: [DEPOSIT_FLAGS.remoteNotFound] })
  return { record, changed: r.changed || record !== r.record, raised: r.raised }
}

/** Adds and removes flags in one audited write; the same object back when nothing changes. */
export async function setDepositFlags(
  store: DepositStore,
  record: DepositRecord,
  o: { add?: readonly string[]; remove?: readonly string[] },
): Promise<DepositRecord> {
  const wanted = new Set(record.flags)
  for (const f of o.remove ?? []) wanted.delete(f)
  for (const f of o.add ?? []) wanted.add(f)
  const same = wanted.size === record.flags.length && record.flags.every((f) => wanted.has(f))
  if (same) return record
  return store.setFlags(record.localId, [...wanted], SYSTEM_OPERATOR)
}
