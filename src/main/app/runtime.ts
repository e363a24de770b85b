/**
 * What exists for the active profile: its API client, its withdrawal service and status tracker. Switching
 * profile closes one runtime and opens another; the ledger is shared (records carry their profile id).
 */
import type { SessionView } from '../../shared/contract'
import type { Profile } from '../../shared/profile'
import { createDepixClient, type DepixClient, type SessionInfo } from '../api'
import type { Ledger } from '../ledger'
import { createDepositService, type DepositService } from '../deposits'
import type { PayeeBook } from '../payees'
import { createWithdrawalService, type WithdrawalService } from '../withdrawals'
import type { ProfileCredentials } from '../profiles'

export interface ProfileRuntime {
  profile: Profile
  client: DepixClient
  withdrawals: WithdrawalService
  /** Top-ups ("Comprar DePix"): the ledger's second record kind. */
  deposits: DepositService
  close(): Promise<void>
}

export function openRuntime(o: {
  profile: Profile
  credentials: ProfileCredentials
  ledger: Ledger
  operator: string
  /** The payee book, for payments made to one of its entries (issue #14). */
  payees?: PayeeBook
}): ProfileRuntime {
  const { profile } = o
  const client = createDepixClient({
    baseUrl: profile.baseUrl,
    auth:
      o.credentials.kind === 'client_credentials'
        ? {
            kind: 'client_credentials',
            clientId: o.credentials.clientId,
            clientSecret: o.credentials.clientSecret,
          }
        : { kind: 'legacy_token', token: o.credentials.token },
    rateLimits: profile.rateLimits,
  })
  const withdrawals = createWithdrawalService({
    ledger: o.ledger,
    client,
    operator: o.operator,
    network: profile.network,
    profile: profile.id,
    partnerRateBps: profile.partnerRateBps,
    ...(profile.assetId ? { assetId: profile.assetId } : {}),
    ...(o.payees ? { payees: o.payees } : {}),
  })
  const deposits = createDepositService({
    ledger: o.ledger,
    client,
    operator: o.operator,
    network: profile.network,
    profile: profile.id,
  })
  return {
    profile,
    client,
    withdrawals,
    deposits,
    close: async () => {
      await withdrawals.tracker.stop()
      await deposits.stop()
      await client.close()
    },
  }
}

const SANDBOX_ENV = /sandbox|test|dev|staging|homolog/i

/** What the renderer may know of a session: never a token. Warns when the token's env contradicts the profile. */
export function sessionView(s: SessionInfo | null, profile: Profile): SessionView | null {
  if (!s) return null
  const looksSandbox = s.env !== null && SANDBOX_ENV.test(s.env)
  const envWarning =
    profile.kind === 'live' && looksSandbox
      ? 'sandbox_token_on_live'
      : profile.kind === 'sandbox' && s.env !== null && !looksSandbox
        ? 'live_token_on_sandbox'
        : null
  return {
    kind: s.kind,
    sub: s.sub,
    scopes: s.scopes,
    env: s.env,
    accessExpiresAt: s.accessExpiresAt,
    envWarning,
  }
}
