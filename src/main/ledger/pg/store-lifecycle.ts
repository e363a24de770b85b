/**
 * The store methods of the shared local lifecycle (kind-lifecycle.ts), the same for withdrawals (store.ts) and
 * top-ups (deposit-store.ts): input checked with the desk ledger's zod schemas, then one transaction each.
 */
import type { z } from 'zod'
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { LedgerError } from '../model/errors'
import { errorInfoOrNull } from '../model/inputs'
import type { Tx } from './tx'

export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw new LedgerError('invalid_input', `${what}: ${r.error.message}`)
  return r.data
}

export const needOperator = (operator: string): void => {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
}

interface KindLife<R, O, Res> {
  markCreated(t: Tx, localId: string, o: O): Promise<R>
  applyJournaledCreate(t: Tx, localId: string, o: O): Promise<{ record: R; applied: boolean }>
  markFailed(
    t: Tx,
    localId: string,
    to: 'rejected' | 'outcome_unknown',
    err: WithdrawalErrorInfo | null,
    details: Record<string, unknown>,
  ): Promise<R>
  recoverInterrupted(t: Tx): Promise<number>
  resolveUnknown(t: Tx, localId: string, r: Res, operator: string): Promise<R>
}

export function lifecycleMethods<R, O, Res>(
  tx: <T>(fn: (t: Tx) => Promise<T>) => Promise<T>,
  life: KindLife<R, O, Res>,
  schemas: { outcome: z.ZodType<O>; resolution: z.ZodType<Res> },
) {
  return {
    markCreated: async (id: string, outcome: unknown): Promise<R> => {
      const o = parse(schemas.outcome, outcome, 'created outcome')
      return tx((t) => life.markCreated(t, id, o))
    },
    applyJournaledCreate: async (id: string, outcome: unknown): Promise<{ record: R; applied: boolean }> => {
      const o = parse(schemas.outcome, outcome, 'created outcome')
      return tx((t) => life.applyJournaledCreate(t, id, o))
    },
    markRejected: async (id: string, error: WithdrawalErrorInfo | null): Promise<R> => {
      if (error === null) throw new LedgerError('invalid_input', 'a rejection needs its error info')
      const err = parse(errorInfoOrNull, error, 'error info')
      return tx((t) => life.markFailed(t, id, 'rejected', err, {}))
    },
    markOutcomeUnknown: async (id: string, error: WithdrawalErrorInfo | null, reason: string): Promise<R> => {
      const err = parse(errorInfoOrNull, error, 'error info')
      return tx((t) => life.markFailed(t, id, 'outcome_unknown', err, { reason }))
    },
    recoverInterrupted: (): Promise<number> => tx((t) => life.recoverInterrupted(t)),
    resolveUnknown: async (id: string, resolution: unknown, operator: string): Promise<R> => {
      const r = parse(schemas.resolution, resolution, 'resolution')
      needOperator(operator)
      return tx((t) => life.resolveUnknown(t, id, r, operator))
    },
  }
}
