/** Every channel of the contract, bound to the services of the app context. */
import { isAbsolute, join } from 'node:path'
import type { RecordFilter } from '../../shared/withdrawal-record'
import { SANDBOX_PROFILE_ID } from '../../shared/profile'
import { createRouter, type Handlers, type Router } from '../ipc/router'
import { checkLiquidAddress } from '../liquid'
import { normalizeFingerprint, openReview } from '../records'
import { exportFrom } from '../records/export'
import { sqliteExportLedger } from '../records/export-source'
import { pgExportLedger } from '../ledger/engines'
import { compareSigner } from '../records/review'
import { isAllowedExternalUrl } from '../shell/renderer-policy'
import type { AppState } from './context'
import { AppError, mapServiceError } from './errors'
import { depositsHandlers } from './deposits-handlers'
import { ledgerHandlers } from './ledger-handlers'
import { payeesHandlers } from './payees-handlers'
import { receiptsHandlers } from './receipts-handlers'
import { reconcileRefund, reconciledAmong } from './refund-reconcile'
import { checkDeskConfirmation } from './desk-confirmation'
import { reviewHandlers } from './review-handlers'
import { runsHandlers } from './runs-handlers'
import { teamConnectionHandlers } from './team-connection-handlers'
import { sessionView } from './runtime'
import { teamHandlers } from './team-handlers'
import { walletHandlers } from './wallet-handlers'
import { walletPayHandlers } from './wallet-pay-handlers'
import { fundingAmount } from './sandbox-tools'
import { loadSigningKey, localFingerprint, publicKeyView } from './signing-key'

/** The active profile's record store: this computer's ledger, or the team's (every desk's payments). */
const store = (state: AppState) => state.runtime().withdrawals.store

async function record(state: AppState, localId: string) {
  const r = await store(state).get(localId)
  if (!r) throw new AppError('not_found', 'No such withdrawal.')
  return r
}

function sandboxOnly(state: AppState) {
  const sandbox = state.sandbox
  if (!sandbox || state.runtime().profile.kind !== 'sandbox') {
    throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
  }
  return sandbox
}

async function remoteIdOf(state: AppState, localId: string): Promise<string> {
  const r = await record(state, localId)
  if (!r.remoteId) throw new AppError('not_created', 'This withdrawal has no id at the service.')
  return r.remoteId
}

/**
 * The live list shows the active profile's records unless the filter names one; on a team ledger every desk's
 * (each desk's profile has its own id, and they are all the team's one account).
 */
function scoped(state: AppState, filter: RecordFilter): RecordFilter {
  if (state.runtime().team) return filter
  return { ...filter, profile: filter.profile ?? state.runtime().profile.id }
}

/** "AB12CD34…" as typed → "ab12 cd34 …", the way keyFingerprint prints it. */
function displayFingerprint(input: string): string {
  const hex = normalizeFingerprint(input)
  return hex.match(/.{4}/g)?.join(' ') ?? hex
}

export function buildRouter(state: AppState, log: (line: string) => void): Router {
  const { o, profiles } = state
  const rt = () => state.runtime()

  /** Prefilled only when the export carries this installation's own key; otherwise nothing is trusted. */
  const ownSigner = (signerFingerprint: string) => {
    const own = localFingerprint(o.vault)
    if (own === null || signerFingerprint === '' || compareSigner(signerFingerprint, own) !== 'match') {
      return { match: 'none', expected: null, source: null } as const
    }
    return { match: 'match', expected: own, source: 'this_computer' } as const
  }

  const handlers: Handlers = {
    ...ledgerHandlers(state),
    // The payee book and receipts are the team's on a team profile (team-books.ts), this computer's otherwise.
    ...payeesHandlers(state),
    ...receiptsHandlers(state),
    // Runs work on a team profile too (issue #16): on the team ledger, with four-eyes for runs.
    ...runsHandlers(state),
    // Top-ups too: on the team ledger, tracked by the leading desk.
    ...depositsHandlers(state),
    // On a team profile the review's ledger check reads the team ledger (issue #16).
    ...reviewHandlers(state),
    ...teamHandlers(state),
    ...teamConnectionHandlers(state),
    ...walletHandlers(state),
    ...walletPayHandlers(state, o.operator),
    'app:info': () => {
      const p = rt().profile
      return {
        ...o.app,
        sandbox: p.kind === 'sandbox',
        profileName: p.name,
        network: p.network,
      }
    },

    'session:get': () => sessionView(rt().client.session(), rt().profile),
    'session:signIn': async () => {
      const s = await rt().client.signIn()
      const view = sessionView(s, rt().profile)
      if (!view) throw new AppError('not_signed_in', 'Sign-in returned no session.')
      return view
    },
    'session:signOut': async () => {
      await rt().client.signOut()
      return null
    },

    'profiles:list': () => ({
      profiles: profiles.list(),
      activeId: rt().profile.id,
      vault: { persistent: o.vault.persistent, reason: o.vault.reason },
    }),
    'profiles:addLive': (input) => profiles.addLive(input),
    'profiles:setCredentials': ({ id, credentials }) => profiles.setCredentials(id, credentials),
    'profiles:update': ({ id, patch }) => profiles.update(id, patch),
    'profiles:remove': async ({ id }) => {
      if (rt().profile.id === id) await state.switchProfile(SANDBOX_PROFILE_ID)
      profiles.remove(id)
      return null
    },
    'profiles:select': async ({ id }) => {
      await state.switchProfile(id)
      const p = profiles.list().find((x) => x.id === id)
      if (!p) throw new AppError('not_found', 'No such profile.')
      return p
    },

    'settings:get': () => profiles.settings(),
    'settings:update': (patch) => profiles.updateSettings(patch),

    'allowance:get': () => rt().client.allowance(),

    'liquid:check': ({ address }) => checkLiquidAddress(address, rt().profile.network),

    'withdrawals:quote': ({ draft }) => rt().withdrawals.quote(draft),
    'withdrawals:create': ({ draft, intentId, confirmedDuplicates, confirmedAmountCents }) => {
      const limit = profiles.settings().liveConfirmAboveCents
      checkDeskConfirmation(rt().profile.kind, limit, draft.amount.cents, confirmedAmountCents)
      return rt().withdrawals.create(draft, { intentId, confirmedDuplicates: confirmedDuplicates ?? [] })
    },
    'withdrawals:list': async (filter) => {
      const f = scoped(state, filter)
      const s = store(state)
      const [page, totals] = await Promise.all([s.query(f), s.totalsByStatus(f)])
      return { rows: page.rows, total: page.total, totals }
    },
    'withdrawals:get': async ({ localId }) => {
      const r = await record(state, localId)
      const { funding, problem, alert } = await rt().withdrawals.funding(localId)
      const observations = await store(state).observations(localId)
      // Under an alert the stored address is not shown anywhere (the detail page lists the record's facts).
      const shown = alert === null ? r : { ...r, depositAddress: null }
      return { record: shown, observations, funding, fundingProblem: problem, fundingAlert: alert }
    },
    'withdrawals:markFunded': ({ localId, txId }) =>
      rt().withdrawals.markFunded(localId, txId ? { txId } : {}),
    'withdrawals:resolveUnknown': ({ localId, resolution }) =>
      rt().withdrawals.resolveUnknown(localId, resolution),
    'withdrawals:refresh': ({ localId }) => rt().withdrawals.refresh(localId),
    'withdrawals:reconcileRefund': ({ localId }) => reconcileRefund(store(state), localId, state.o.operator),
    'withdrawals:reconciledRefunds': ({ localIds }) => reconciledAmong(store(state), localIds),

    'sandbox:fund': async ({ localId, mode }) => {
      const sandbox = sandboxOnly(state)
      const r = await record(state, localId)
      const remoteId = await remoteIdOf(state, localId)
      if (r.depositAmountCents === null)
        throw new AppError('no_amount', 'The withdrawal has no deposit amount yet.')
      sandbox.control.fundWithdrawal(remoteId, fundingAmount(r.depositAmountCents, mode))
      return rt().withdrawals.refresh(localId)
    },
    'sandbox:settle': async ({ localId, outcome }) => {
      const sandbox = sandboxOnly(state)
      sandbox.control.settlePayout(await remoteIdOf(state, localId), outcome)
      return rt().withdrawals.refresh(localId)
    },
    'sandbox:maintenance': ({ on }) => {
      sandboxOnly(state).control.setMaintenance(on)
      return { on }
    },

    'dialog:chooseFolder': async ({ purpose }) => {
      const profileId = rt().profile.id
      const folder = await o.ports.chooseDirectory(purpose)
      if (folder === null) return null
      if (!isAbsolute(folder)) throw new AppError('folder_invalid', 'The dialog returned no usable folder.')
      return { token: state.folders.issue(folder, purpose, profileId), folder }
    },

    'records:export': async (input) => {
      const p = rt().profile
      // A team export covers the team's ledger, every desk's records (as the live list shows them).
      const team = rt().team
      if (team && !team.pg) throw team.refusal()
      // Checked before the token is spent, so a refused filter does not cost the folder choice.
      if (!team && input.filter?.profile !== undefined && input.filter.profile !== p.id) {
        throw new AppError(
          'export_other_profile',
          'An export covers the active profile only: switch profile to export another one.',
        )
      }
      const dir = state.folders.take(input.folder, 'export', p.id)
      const settings = profiles.settings()
      const result = await exportFrom(team?.pg ? pgExportLedger(team.pg) : sqliteExportLedger(state.ledger), {
        dir,
        formats: input.formats,
        filter: team ? { ...input.filter } : { ...input.filter, profile: p.id },
        csvDelimiter: input.csvDelimiter ?? settings.csvDelimiter,
        locale: input.locale ?? settings.csvLocale,
        includeReceipts: input.includeReceipts === true,
        ...(input.recordKind ? { kind: input.recordKind } : {}),
        signer: loadSigningKey(o.vault),
        appVersion: o.app.version,
        profile: { name: p.name, network: p.network },
        onProgress: (done, total) => state.emit('export:progress', { done, total }),
        operator: o.operator,
        // Redacted should a stored credential ever surface inside a record's raw API data.
        secrets: [
          ...o.vault
            .keys()
            .filter((k) => k.startsWith('profile:') || k.startsWith('team-ledger:'))
            .map((k) => o.vault.get(k)),
          state.sandbox?.credentials.clientSecret,
        ].filter((v): v is string => typeof v === 'string'),
      })
      return result
    },
    'records:publicKey': () => publicKeyView(loadSigningKey(o.vault)),

    'review:open': async ({ folder }) => {
      const chosen = state.folders.take(folder, 'review', rt().profile.id)
      state.review?.close()
      state.review = null
      const review = await openReview(join(chosen, 'manifest.json'))
      state.review = review
      const v = review.verification
      const m = v.manifest
      return {
        dir: chosen,
        ok: v.ok,
        problems: v.problems,
        signerFingerprint: v.signerFingerprint,
        signer: ownSigner(v.signerFingerprint),
        manifest: m
          ? {
              appVersion: m.appVersion,
              profile: m.profile.name,
              network: m.profile.network,
              exportedAt: m.exportedAt,
              rowCount: m.rowCount,
              ...(m.recordKind ? { recordKind: m.recordKind } : {}),
            }
          : null,
        // Issue #30: the verified count while the ledger loads (an intact export's ledger holds exactly those).
        rowCount:
          v.ok && m
            ? m.rowCount
            : m?.recordKind === 'deposit'
              ? review.ledger.deposits.query({ limit: 1 }).total
              : review.ledger.query({ limit: 1 }).total,
      }
    },
    'review:checkSigner': ({ expected }) => {
      const review = state.review
      if (!review) throw new AppError('no_review', 'Open an export folder first.')
      let match
      try {
        match = compareSigner(review.verification.signerFingerprint, expected)
      } catch {
        throw new AppError('fingerprint_invalid', 'A key fingerprint is 32 hexadecimal digits.', {
          fields: { expected: 'fingerprint_invalid' },
        })
      }
      if (match === 'none') return { match, expected: null, source: null }
      const own = localFingerprint(o.vault)
      const fromHere = own !== null && compareSigner(own, expected) === 'match'
      return { match, expected: displayFingerprint(expected), source: fromHere ? 'this_computer' : 'entered' }
    },
    'review:list': async (filter) => {
      const review = state.review
      if (!review) throw new AppError('no_review', 'Open an export folder first.')
      // The first page while the ledger loads (review.ts); anything else waits for the load.
      const first = review.firstPage(filter)
      if (first) return first
      const wasOk = review.verification.ok
      await review.loaded
      // Only a forged export verifies and then fails to load (two records with one remote id): never an empty
      // list under a green verdict.
      if (wasOk && !review.verification.ok) {
        throw new AppError(
          'review_not_loadable',
          review.verification.problems.at(-1)?.detail ?? 'not loadable',
        )
      }
      const page = review.ledger.query(filter)
      return { rows: page.rows, total: page.total, totals: review.ledger.totalsByStatus(filter) }
    },
    'review:close': () => {
      state.review?.close()
      state.review = null
      return null
    },

    'shell:openExternal': async ({ url, localId }) => {
      const receipt = localId ? (await store(state).get(localId))?.lastRemote?.['receiptUrl'] : undefined
      const known = typeof receipt === 'string' ? [receipt] : []
      if (!isAllowedExternalUrl(url, known)) return { opened: false }
      await o.ports.openExternal(url)
      return { opened: true }
    },
  }

  return createRouter(handlers, {
    mapError: mapServiceError,
    onUnexpected: (channel, e) => log(`IPC ${channel} failed: ${e instanceof Error ? e.name : typeof e}`),
  })
}
