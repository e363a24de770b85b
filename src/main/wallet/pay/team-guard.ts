/**
 * The team database's guard against funding a payment twice (team migration 17, `funding_attempts`): the desk's
 * attempts file protects one computer; on a team profile every attempt is also claimed in the database, which
 * refuses a second live attempt for a payment whoever builds it. Written only through the migration's functions.
 */
import type pg from 'pg'
import { PayRefusal } from './errors'

export interface FundingGuard {
  /** every payment for this attempt, or a refusal (`already_in_funding`); idempotent for the same attempt */
  claim(attemptId: string, localIds: readonly string[], txid: string): Promise<void>
  /** the attempt was cancelled before anything left: its payments are free again */
  release(attemptId: string): Promise<void>
  /** the txid is recorded on every payment; the claim keeps holding them */
  recorded(attemptId: string): Promise<void>
}

const UNIQUE_VIOLATION = '23505'

export function pgFundingGuard(pool: pg.Pool): FundingGuard {
  return {
    async claim(attemptId, localIds, txid) {
      try {
        await pool.query('SELECT funding_claim($1::uuid, $2::text[], $3)', [attemptId, [...localIds], txid])
      } catch (e) {
        const err = e as { code?: unknown; detail?: unknown }
        if (err.code !== UNIQUE_VIOLATION) throw e
        // DETAIL carries the held payment's local id (the function sets it); the message is never parsed.
        const localId = typeof err.detail === 'string' ? err.detail : undefined
        throw new PayRefusal('already_in_funding', {
          ...(localId !== undefined ? { localId } : {}),
          what: 'team',
        })
      }
    },
    async release(attemptId) {
      await pool.query('SELECT funding_release($1::uuid)', [attemptId])
    },
    async recorded(attemptId) {
      await pool.query('SELECT funding_recorded($1::uuid)', [attemptId])
    },
  }
}
