/**
 * The journaled create, for every record kind (docs/adr/0002-journal-before-post.md). The API has no idempotency (docs/API-CONTRACT.md#s1-6), so the
 * order is the whole point:
 *
 *   session + free POST token → take the one-use intent → journal `submitting` (committed, fsynced)
 *     → POST once → store the outcome (created | rejected | outcome_unknown)
 *
 * A crash between the journal and the stored outcome leaves `submitting`, which the next start turns into
 * `outcome_unknown` (journal/recovery.ts). An answer the ledger cannot store goes to the side journal. Nothing here
 * ever sends the POST a second time; an unclear answer becomes `outcome_unknown` and waits for the operator.
 *
 * What differs per kind (the body, the endpoint, where the new id sits, what follows a create) is given by the
 * caller: withdrawals/create.ts and deposits/create.ts.
 */
import type { EndpointName } from '../../shared/api-limits'
import type { RecordKindId } from '../../shared/record-kinds'
import type { WithdrawalErrorInfo } from '../../shared/withdrawal-record'
import { ApiError, type ApiResult, type DepixClient } from '../api'
import { LedgerError, type CreatedOutcome } from '../ledger/sqlite'
import type { KindWords, Refuse } from './refusals'
import { appendSideJournal, createdEntry } from './side-journal'

type MaybePromise<T> = T | Promise<T>

/**
 * The record store of one kind, as the create flow uses it: the embedded ledger answers at once, the team ledger
 * (src/main/ledger/pg) with a promise. `insertSubmitting` may refuse (a duplicate another desk created since the
 * review): nothing is journaled then, nothing sent.
 */
export interface CreateStore<R extends { localId: string }> {
  insertSubmitting(): MaybePromise<R>
  markCreated(localId: string, outcome: CreatedOutcome): MaybePromise<R>
  markRejected(localId: string, info: WithdrawalErrorInfo): MaybePromise<R>
  markOutcomeUnknown(localId: string, info: WithdrawalErrorInfo | null, reason: string): MaybePromise<R>
}

export interface JournaledCreate<R extends { localId: string }, T> {
  kind: RecordKindId
  words: KindWords
  refuse: Refuse
  client: Pick<DepixClient, 'session' | 'allowance'> & Partial<Pick<DepixClient, 'reserve'>>
  /** The create endpoint: its allowance must have a token free now. */
  endpoint: Extract<EndpointName, 'withdraw' | 'deposit'>
  /** The side journal file (journal/side-journal.ts); null: none (an in-memory ledger). */
  sideJournal: string | null
  profile: string
  now: () => number
  store: CreateStore<R>
  /** Takes the one-use intent (throws the kind's refusal). Runs synchronously right before the journal. */
  takeIntent: () => void
  /** The one POST. */
  post: () => Promise<ApiResult<T>>
  /** The 2xx answer as the ledger stores it. */
  outcomeOf: (res: ApiResult<T>) => CreatedOutcome
  beforePost?: (record: R) => void | Promise<void>
  changed: (record: R) => void
  onError: (e: unknown, localId: string | null) => void
}

export type CreateResult<R, T> =
  { created: true; record: R; res: ApiResult<T> } | { created: false; record: R }

/**
 * Everything up to the insert runs synchronously, so two concurrent calls cannot both pass the intent: the first
 * one takes it and its insert is under way (done, on the embedded ledger) before the second one looks. The
 * `submitting` record is committed before the POST leaves: the insert is awaited first.
 */
export async function journaledCreate<R extends { localId: string }, T>(
  c: JournaledCreate<R, T>,
): Promise<CreateResult<R, T>> {
  if (c.client.session() === null) {
    throw c.refuse('not_signed_in', `Sign in before creating a ${c.words.en}.`)
  }
  // A budget behind the desk's (the team's, shared by every desk) must have the token now too: a create never
  // journals and then waits in a queue for it. Taken here, the POST uses it. Awaited before the desk's own check,
  // so that check, the intent and the insert still follow one another synchronously.
  const teamWait = c.client.reserve ? await c.client.reserve(c.endpoint) : 0
  // A POST that waited in the limiter's queue would sit journaled but unsent; a crash then would leave an
  // outcome_unknown record that never left. Refuse instead while no token is free.
  const slot = c.client.allowance()[c.endpoint]
  if (teamWait > 0 || slot.available + 1e-9 < 1 || slot.queued > 0) {
    const retryAfterSeconds = Math.max(1, Math.ceil(Math.max(teamWait, slot.nextTokenInMs) / 1000))
    throw c.refuse(
      'rate_limited',
      `No POST /${c.endpoint} allowance free; retry in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
    )
  }
  // Last check before the journal, and it consumes the intent: nothing may run between it and the insert.
  c.takeIntent()
  const submitting = await c.store.insertSubmitting()
  const localId = submitting.localId
  c.changed(submitting)

  if (c.beforePost) {
    try {
      await c.beforePost(submitting)
    } catch (e) {
      c.onError(e, localId)
      return {
        created: false,
        record: await finish(c, localId, () =>
          c.store.markRejected(localId, { ...EMPTY_INFO, kind: 'aborted_before_send' }),
        ),
      }
    }
  }

  let res: ApiResult<T>
  try {
    res = await c.post()
  } catch (e) {
    const info = errorInfo(e)
    if (createVerdict(e) === 'rejected') {
      return { created: false, record: await finish(c, localId, () => c.store.markRejected(localId, info)) }
    }
    const reason = e instanceof ApiError ? (e.code ?? e.kind) : 'unexpected_error'
    return {
      created: false,
      record: await finish(c, localId, () => c.store.markOutcomeUnknown(localId, info, reason)),
    }
  }

  const outcome = c.outcomeOf(res)
  let record: R
  try {
    record = await c.store.markCreated(localId, outcome)
  } catch (e) {
    c.onError(e, localId)
    const info: WithdrawalErrorInfo = {
      ...EMPTY_INFO,
      kind: 'store_failed',
      requestId: res.requestId,
      status: res.status,
      createdId: outcome.remoteId,
    }
    // The ledger refused the answer on purpose (e.g. an id already linked elsewhere): keep what is known where
    // the operator will look, and never as created.
    if (e instanceof LedgerError) {
      return {
        created: false,
        record: await finish(c, localId, () => c.store.markOutcomeUnknown(localId, info, 'store_failed')),
      }
    }
    // The ledger could not write (disk full, I/O, the team server gone): the record exists at the service and its
    // id must survive.
    return storeFailed(c, localId, outcome, info)
  }
  c.changed(record)
  return { created: true, record, res }
}

/**
 * A create whose answer the ledger could not write. The answer goes to the side journal (replayed into the ledger
 * at the next start or create), the record is marked outcome_unknown with the id if the ledger still takes that,
 * and the operator is told the id now, whatever else failed.
 */
async function storeFailed<R extends { localId: string }, T>(
  c: JournaledCreate<R, T>,
  localId: string,
  outcome: CreatedOutcome,
  info: WithdrawalErrorInfo,
): Promise<never> {
  let kept = false
  const file = c.sideJournal
  if (file !== null) {
    try {
      appendSideJournal(
        file,
        createdEntry(localId, c.profile, new Date(c.now()).toISOString(), outcome, c.kind),
      )
      kept = true
    } catch (e) {
      c.onError(e, localId)
    }
  }
  try {
    c.changed(await c.store.markOutcomeUnknown(localId, info, 'store_failed'))
  } catch (e) {
    // Still `submitting`: the next start replays the side journal, or turns it into outcome_unknown.
    c.onError(e, localId)
  }
  const id = outcome.remoteId
  const w = c.words
  const where = kept
    ? {
        en: 'It was kept in the side journal and will be written to the ledger at the next start.',
        'pt-BR': 'Ele foi guardado no diário auxiliar e será gravado no livro-caixa no próximo início.',
      }
    : {
        en: 'It could not be saved anywhere: write it down now.',
        'pt-BR': 'Ele não pôde ser salvo em lugar nenhum: anote-o agora.',
      }
  const noun = w.en.charAt(0).toUpperCase() + w.en.slice(1)
  throw c.refuse(
    'ledger_write_failed',
    `${noun} ${id} WAS CREATED, but the local ledger could not store it (${localId}). ${where.en} ` +
      'Do not create it again.',
    {
      localId,
      reason: kept ? 'side_journal' : 'not_saved',
      createdId: id,
      requestId: outcome.requestId,
      userMessage: {
        'pt-BR':
          `${w.ptSubject} ${id} FOI ${w.ptCreated}, mas o registro local não pôde ser gravado. ${where['pt-BR']} ` +
          `Não ${w.ptPronoun} crie de novo.`,
        en: `${noun} ${id} WAS CREATED, but the local record could not be saved. ${where.en} Do not create it again.`,
      },
    },
  )
}

/** Writes the final state; a ledger failure here leaves `submitting`, which a restart turns into outcome_unknown. */
async function finish<R extends { localId: string }, T>(
  c: JournaledCreate<R, T>,
  localId: string,
  write: () => MaybePromise<R>,
): Promise<R> {
  let record: R
  try {
    record = await write()
  } catch (e) {
    c.onError(e, localId)
    throw c.refuse(
      'ledger_write_failed',
      `The answer for ${localId} could not be stored; the record stays "submitting" and becomes outcome_unknown ` +
        `at the next start. Do not resend: check the ${c.words.en} with support first.`,
      { localId, reason: e instanceof Error ? e.name : 'unknown' },
    )
  }
  c.changed(record)
  return record
}

export const EMPTY_INFO: WithdrawalErrorInfo = {
  kind: 'unknown',
  status: null,
  messageCode: null,
  denialCode: null,
  requestId: null,
}

/**
 * What a failed POST means for the money. Only answers that prove nothing was created are `rejected`; anything
 * else — including an error we did not foresee — is `outcome_unknown`.
 */
export function createVerdict(e: unknown): 'rejected' | 'outcome_unknown' {
  if (!(e instanceof ApiError)) return 'outcome_unknown'
  if (e.kind === 'outcome_unknown') return 'outcome_unknown'
  // The session could not be obtained (login/refresh failed): the POST itself never left.
  if (e.endpoint?.startsWith('auth/') || e.nothingSent) return 'rejected'
  switch (e.kind) {
    case 'business': // 520: final refusal
    case 'compliance': // 422: definitive
    case 'bad_request': // 400/413/415 and other 4xx
    case 'forbidden': // 403: stopped before the operation
    case 'unauthorized': // 401: stopped before the operation
    case 'rate_limited': // 429: stopped before the operation
    case 'maintenance': // 503 + Retry-After: nothing was created
    case 'route_not_found': // 404: no operation matched
    case 'network': // the client only uses `network` for a create when nothing was sent
      return 'rejected'
    default:
      // `server` and `invalid_response` are classified as outcome_unknown by the client for creates; if one
      // still arrives here we cannot tell whether the record exists.
      return 'outcome_unknown'
  }
}

/** The error as the ledger keeps it: codes and ids, never tokens (ApiError carries none). */
export function errorInfo(e: unknown): WithdrawalErrorInfo {
  if (!(e instanceof ApiError)) {
    return { ...EMPTY_INFO, kind: 'unexpected', message: e instanceof Error ? e.name : typeof e }
  }
  const info: WithdrawalErrorInfo = {
    kind: e.kind,
    status: e.status,
    messageCode: e.messageCode ?? null,
    denialCode: e.denialCode ?? null,
    requestId: e.requestId,
    message: e.errorMessage ?? null,
  }
  const extra: Record<string, unknown> = {
    nonce: e.nonce,
    code: e.code,
    endpoint: e.endpoint,
    denialMessage: e.denialMessage,
    supportReference: e.supportReference,
    retryAfterSeconds: e.retryAfterSeconds,
    causeCode: e.causeCode,
    createdId: e.createdId,
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) info[k] = v
  return info
}
