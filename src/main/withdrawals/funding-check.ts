/**
 * Funding shown is funding checked (issue #24). The stored record is not proof of where the service expects the
 * DePix: on a team ledger it is a row other people's roles could write, on a desk a file. So before the app shows
 * a deposit address and amount (the Funding page, a wave's sheet and its files), it asks the service once
 * (`GET /withdraw-status`, through the client's limiter and allowance) and compares the answer with the record:
 *
 * - same address (normalised) and same amount: shown;
 * - any difference: `funding_mismatch`, a red alert, nothing to pay;
 * - no answer (network, rate limit, maintenance…) or an answer without the address or the amount:
 *   `funding_unconfirmed`, said as such, nothing to pay either — an unchecked address is what the attack needs.
 *
 * The service's facts (never the verdict) are kept for FUNDING_CHECK_TTL_MS per withdrawal so that opening the sheet
 * and then saving its files costs one read per row, not two; each showing still compares them with the record as
 * read now, so a row changed after the read is still caught. Failed reads are not kept. Every other answer of
 * `GET /withdraw-status` this process receives (the tracker's polls, "check now") is noted too (`note`): the
 * tracker of a fresh wave spends the endpoint's whole allowance, so a sheet of 25 rows must not ask 25 times more.
 */
import { isApiError } from '../api'
import type { DepixClient, WithdrawalStatus } from '../api'
import type { FundingAlert } from '../../shared/contract'
import { statusCategory } from '../../shared/withdrawal-status'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { checkLiquidAddress, type LiquidNetwork } from '../liquid'
import type { FundingProblem } from './types'

export const FUNDING_CHECK_TTL_MS = 30_000

interface ServiceFacts {
  at: number
  address: string | null
  cents: number | null
  status: string | null
  hasRefund: boolean
}

/** What the check reads of an answer (a status answer, or the create's with its id as `id`). */
export type ServiceAnswer = Pick<
  WithdrawalStatus,
  'id' | 'depositAddress' | 'depositAmountInCents' | 'status'
> & {
  refund?: unknown
}

export interface FundingCheck {
  problem: FundingProblem | null
  alert: FundingAlert | null
}

export interface FundingChecker {
  check(r: WithdrawalRecord): Promise<FundingCheck>
  /**
   * An answer received elsewhere in this process (the service's own words): a GET /withdraw-status of the tracker,
   * or the create's own answer (POST /withdraw names the deposit address and amount).
   */
  note(remoteId: string, data: ServiceAnswer): void
}

const OK: FundingCheck = { problem: null, alert: null }

function normalised(address: string | null, network: LiquidNetwork): string | null {
  if (address === null) return null
  const c = checkLiquidAddress(address, network)
  return c.ok ? c.address : null
}

export function fundingChecker(deps: {
  client: Pick<DepixClient, 'withdrawStatus'>
  network: LiquidNetwork
  monotonic: () => number
}): FundingChecker {
  const facts = new Map<string, ServiceFacts>()
  const inFlight = new Map<string, Promise<ServiceFacts>>()

  function keep(remoteId: string, data: ServiceAnswer): ServiceFacts {
    const f: ServiceFacts = {
      at: deps.monotonic(),
      address: data.depositAddress ?? null,
      cents: data.depositAmountInCents ?? null,
      status: data.status ?? null,
      hasRefund: data.refund !== undefined && data.refund !== null,
    }
    facts.set(remoteId, f)
    return f
  }

  async function read(remoteId: string): Promise<ServiceFacts> {
    const kept = facts.get(remoteId)
    if (kept && deps.monotonic() - kept.at < FUNDING_CHECK_TTL_MS) return kept
    // Two showings at once (the sheet and its files) share one read.
    const pending = inFlight.get(remoteId)
    if (pending) return pending
    const p = (async () => {
      const { data } = await deps.client.withdrawStatus(remoteId)
      return keep(remoteId, data)
    })()
    inFlight.set(remoteId, p)
    try {
      return await p
    } finally {
      inFlight.delete(remoteId)
    }
  }

  return {
    note(remoteId, data) {
      // Only an answer about this withdrawal (the service names it) that names both facts tells where its DePix
      // goes; a partial one (a minimal create answer) leaves the check to read for itself.
      if (data.id === remoteId && data.depositAddress && typeof data.depositAmountInCents === 'number')
        keep(remoteId, data)
    },
    async check(r) {
      if (r.remoteId === null) return { problem: 'not_created', alert: null }
      let f: ServiceFacts
      try {
        f = await read(r.remoteId)
      } catch (e) {
        const reason = isApiError(e) ? e.kind : 'error'
        return { problem: 'funding_unconfirmed', alert: { kind: 'unconfirmed', fields: [], reason } }
      }
      const fields: FundingAlert['fields'] = []
      const theirs = normalised(f.address, deps.network)
      const ours = normalised(r.depositAddress, deps.network)
      if (f.address !== null && theirs !== ours) fields.push('deposit_address')
      if (f.cents !== null && f.cents !== r.depositAmountCents) fields.push('deposit_amount')
      if (fields.length > 0)
        return { problem: 'funding_mismatch', alert: { kind: 'mismatch', fields, reason: null } }
      if (theirs === null || f.cents === null) {
        return {
          problem: 'funding_unconfirmed',
          alert: { kind: 'unconfirmed', fields: [], reason: 'incomplete' },
        }
      }
      // The service's own status is newer than the stored one: funded, paid or expired there is not payable here.
      if (f.status !== null) {
        const category = statusCategory(f.status, f.hasRefund)
        if (category !== 'awaiting_funding' && category !== 'unknown') {
          return { problem: 'not_awaiting_funding', alert: null }
        }
      }
      return OK
    },
  }
}
