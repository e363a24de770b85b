/**
 * The withdrawal service's one-use create intents: the shared mechanism (src/main/journal/intents.ts) with the
 * withdrawal's own refusals.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { INTENT_TTL_MS, OneUseIntents } from '../journal/intents'
import { withdrawalRefusal } from './errors'

export { INTENT_TTL_MS, MAX_OPEN_INTENTS, type IntentCheck, type IssuedIntent } from '../journal/intents'

export class CreateIntents extends OneUseIntents<WithdrawalRecord> {
  constructor(mono: () => number, ttlMs = INTENT_TTL_MS) {
    super(mono, withdrawalRefusal, 'withdrawal', ttlMs)
  }
}
