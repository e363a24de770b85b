/**
 * One-use create intents (issue #11), for every record kind. The review (`quote`) issues one; `create` must present
 * it. An intent is bound to the profile, the exact request body the operator saw, and the similar records shown
 * next to it, and expires quickly. It is taken synchronously, before anything is journaled, so two concurrent
 * creates with the same intent cannot both pass: the second finds it used.
 *
 * Intents live in memory only: a restart or a profile switch (a new service) voids them, which only costs the
 * operator a fresh review.
 */
import { randomUUID } from 'node:crypto'
import { canonicalJson } from '../ledger/model/canonical-json'
import type { Refuse } from './refusals'

/** Long enough to read a review, short enough that a forgotten window cannot create tomorrow. */
export const INTENT_TTL_MS = 10 * 60 * 1000
/** Open intents kept per service; the oldest goes first (each review issues one). */
export const MAX_OPEN_INTENTS = 32

export interface IssuedIntent {
  id: string
  expiresInSeconds: number
}

interface Intent {
  id: string
  profile: string
  /** Canonical JSON of the exact request body shown at review. */
  body: string
  /** Local ids of the similar records shown at review. */
  seen: ReadonlySet<string>
  expiresAt: number
}

export interface IntentCheck<R extends { localId: string }> {
  profile: string
  request: unknown
  /** The similar records in the ledger now (including ones still `submitting`). */
  similarNow: readonly R[]
  /** Local ids the operator confirmed as not duplicates. */
  confirmed: readonly string[]
}

export class OneUseIntents<R extends { localId: string }> {
  readonly #open = new Map<string, Intent>()

  /**
   * `mono`: a monotonic clock in ms (a wall-clock step must neither expire nor revive an intent). `noun` names the
   * kind in the English fallback texts ("withdrawal", "top-up").
   */
  constructor(
    private readonly mono: () => number,
    private readonly refuse: Refuse,
    private readonly noun: string,
    private readonly ttlMs = INTENT_TTL_MS,
  ) {}

  issue(profile: string, request: unknown, similar: readonly string[]): IssuedIntent {
    const now = this.mono()
    for (const [id, i] of this.#open) if (i.expiresAt <= now) this.#open.delete(id)
    while (this.#open.size >= MAX_OPEN_INTENTS) {
      const oldest = this.#open.keys().next().value as string
      this.#open.delete(oldest)
    }
    const id = randomUUID()
    this.#open.set(id, {
      id,
      profile,
      body: canonicalJson(request),
      seen: new Set(similar),
      expiresAt: now + this.ttlMs,
    })
    return { id, expiresInSeconds: Math.floor(this.ttlMs / 1000) }
  }

  /**
   * Checks the intent against what is about to be sent and consumes it. Throws the kind's refusal (nothing
   * journaled, nothing sent) when it is missing, used, expired, for another body or profile, when a similar record
   * appeared since the review, or when a similar record shown was not confirmed. Synchronous on purpose.
   */
  take(id: string, c: IntentCheck<R>): void {
    const noun = this.noun
    const intent = this.#open.get(id)
    if (intent === undefined) {
      throw this.refuse(
        'intent_invalid',
        `This review was already used or does not exist: review the ${noun} again before creating it.`,
      )
    }
    if (intent.expiresAt <= this.mono()) {
      this.#open.delete(id)
      throw this.refuse('intent_expired', `The review expired: review the ${noun} again before creating it.`)
    }
    if (intent.profile !== c.profile || intent.body !== canonicalJson(c.request)) {
      throw this.refuse(
        'intent_mismatch',
        `The ${noun} differs from the one reviewed: review it again before creating it.`,
      )
    }
    const appeared = c.similarNow.filter((r) => !intent.seen.has(r.localId))
    if (appeared.length > 0) {
      // The operator confirmed a list that is no longer complete: that confirmation is void.
      this.#open.delete(id)
      throw this.refuse(
        'duplicate_since_review',
        `${appeared.length} similar ${noun}(s) appeared since the review (some may still be being created): ` +
          'review again.',
        { duplicates: [...c.similarNow] },
      )
    }
    const confirmed = new Set(c.confirmed)
    if (c.similarNow.some((r) => !confirmed.has(r.localId))) {
      throw this.refuse(
        'duplicate',
        `${c.similarNow.length} similar ${noun}(s) in the last 24 hours: ` +
          'confirm each one shown is not a duplicate.',
        { duplicates: [...c.similarNow] },
      )
    }
    this.#open.delete(id)
  }
}
