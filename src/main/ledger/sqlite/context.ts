import type { z } from 'zod'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import type { Db } from './db'
import { LedgerError } from '../model/errors'
import { getRecord } from './queries'

export interface Ctx {
  db: Db
  /** Current time as ISO 8601 UTC with milliseconds: one format, so string order is time order. */
  nowIso: () => string
}

export function mustGet(ctx: Ctx, localId: string): WithdrawalRecord {
  const r = getRecord(ctx.db, localId)
  if (!r) throw new LedgerError('not_found', `no withdrawal record ${localId}`)
  return r
}

/** Validates caller input; a refusal is LedgerError('invalid_input'), never a half-applied write. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw new LedgerError('invalid_input', `${what}: ${r.error.message}`)
  return r.data
}
