/**
 * Funding instructions: where to send how much DePix. A wrong address or amount loses money, so instructions exist
 * only when every fact behind them is the service's own and checks out; otherwise a problem code says why not.
 */
import { FUNDING_TOLERANCE_BPS } from '../../shared/api-limits'
import type { FundingInstructions } from '../../shared/contract'
import { centsToDePix } from '../../shared/money'
import { RECORD_FLAGS, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { isTerminalStatus, statusCategory } from '../../shared/withdrawal-status'
import { checkLiquidAddress, fundingQrSvg, fundingUri, type LiquidNetwork } from '../liquid'
import type { FundingChecker } from './funding-check'
import type { FundingProblem, FundingResult } from './types'

export interface FundingCtx {
  network: LiquidNetwork
  profile: string
  assetId: string
  now: () => number
  /** The service's confirmation of the stored facts (funding-check.ts); asked last, once the record itself holds. */
  confirm?: FundingChecker['check']
}

/** Statuses that still take a deposit: the one the sandbox calls `unsent`, and any status we do not know. */
const PAYABLE_CATEGORIES: ReadonlySet<string> = new Set(['awaiting_funding', 'unknown'])

export function fundingProblem(ctx: FundingCtx, r: WithdrawalRecord): FundingProblem | null {
  if (r.profile !== ctx.profile) return 'other_profile'
  if (r.localState !== 'created') return 'not_created'
  const hasRefund = r.refund !== null
  if (r.remoteStatus !== null && isTerminalStatus(r.remoteStatus, hasRefund)) return 'terminal'
  if (r.remoteStatus !== null && !PAYABLE_CATEGORIES.has(statusCategory(r.remoteStatus, hasRefund))) {
    // Already funded and processing, or failed: another deposit would not be expected by the service.
    return 'not_awaiting_funding'
  }
  if (r.flags.includes(RECORD_FLAGS.depositAddressInvalid)) return 'deposit_address_invalid'
  // The service named two different addresses for one withdrawal: nobody can tell which one is right.
  if (r.flags.includes(RECORD_FLAGS.depositAddressChanged)) return 'deposit_address_changed'
  if (r.depositAddress === null) return 'no_deposit_address'
  if (!checkLiquidAddress(r.depositAddress, ctx.network).ok) return 'deposit_address_invalid'
  if (r.depositAmountCents === null || r.depositAmountCents <= 0) return 'no_deposit_amount'
  if (r.expiration !== null) {
    const expires = Date.parse(r.expiration)
    if (!Number.isNaN(expires) && expires <= ctx.now()) return 'expired'
  }
  return null
}

export async function fundingFor(ctx: FundingCtx, r: WithdrawalRecord): Promise<FundingResult> {
  const problem = fundingProblem(ctx, r)
  if (problem !== null) return { funding: null, problem, alert: null }
  const checked = checkLiquidAddress(r.depositAddress as string, ctx.network)
  if (!checked.ok) return { funding: null, problem: 'deposit_address_invalid', alert: null }
  if (ctx.confirm) {
    const confirmed = await ctx.confirm(r)
    if (confirmed.problem !== null) return { funding: null, ...confirmed }
  }
  const cents = r.depositAmountCents as number
  const uri = fundingUri({ address: checked.address, cents, network: ctx.network, assetId: ctx.assetId })
  const funding: FundingInstructions = {
    localId: r.localId,
    address: checked.address,
    confidential: checked.confidential,
    network: ctx.network,
    cents,
    depixAmount: centsToDePix(cents),
    assetId: ctx.assetId.toLowerCase(),
    uri,
    qrSvg: await fundingQrSvg(uri),
    expiration: r.expiration,
    toleranceBps: FUNDING_TOLERANCE_BPS,
  }
  return { funding, problem: null, alert: null }
}
