/**
 * A top-up's QR shown is a QR checked (issue #24): before the Pix payload is shown (picture or "copia e cola"),
 * main asks the service once (`GET /deposit-status`, through the client's limiter) and compares its answer with
 * the record and the payload:
 *
 * - the service's amount (`valueInCents`) against the record's and against the payload's (field 54);
 * - the payload's static Pix key (field 26, sub-field 01), when it has one, against the receiving key the service
 *   names (`pixKey`), when it names one;
 * - and, without the service, the payload against the one in the stored create answer.
 *
 * (The expiry is not compared: the tracker may not have stored a later one yet, and a wrong expiry redirects no
 * money.) Any difference is a `mismatch` alert; no answer, or an answer without an amount, an `unconfirmed` one. Either
 * way the detail carries no payload at all. What this cannot see: `GET /deposit-status` does not return the
 * payload, so a payload swapped for another of the same amount, in a row whose create answer was rewritten too,
 * passes here; the team database keeps the payload and the create answer frozen once written (docs/TEAM-LEDGER.md).
 *
 * The service's facts (never the verdict) are kept QR_CHECK_TTL_MS per deposit, as for withdrawals.
 */
import { isApiError, type DepixClient } from '../api'
import type { FundingAlert } from '../../shared/contract'
import { depositAmountOf, type DepositRecord } from '../../shared/deposit-record'
import { QR_PAYLOAD_KEYS, qrPayloadOf } from '../ledger/sqlite/deposits'
import type { BrCodeFacts } from './brcode'

export const QR_CHECK_TTL_MS = 30_000

interface ServiceFacts {
  at: number
  cents: number | null
  pixKey: string | null
}

export interface DepositQrChecker {
  /** Null: the payload may be shown. */
  check(r: DepositRecord, payload: BrCodeFacts | null): Promise<FundingAlert | null>
}

export function depositQrChecker(deps: {
  client: Pick<DepixClient, 'depositStatus'>
  monotonic: () => number
}): DepositQrChecker {
  const facts = new Map<string, ServiceFacts>()

  async function read(remoteId: string): Promise<ServiceFacts> {
    const kept = facts.get(remoteId)
    if (kept && deps.monotonic() - kept.at < QR_CHECK_TTL_MS) return kept
    const { data } = await deps.client.depositStatus(remoteId)
    const f: ServiceFacts = {
      at: deps.monotonic(),
      cents: data.valueInCents ?? null,
      pixKey: data.pixKey ?? null,
    }
    facts.set(remoteId, f)
    return f
  }

  return {
    async check(r, payload) {
      const created = qrPayloadOf(r.createResponse)
      if (created !== null && created !== r.qrCopyPaste) {
        return { kind: 'mismatch', fields: ['qr_payload'], reason: null }
      }
      if (r.remoteId === null) return { kind: 'unconfirmed', fields: [], reason: 'incomplete' }
      let f: ServiceFacts
      try {
        f = await read(r.remoteId)
      } catch (e) {
        return { kind: 'unconfirmed', fields: [], reason: isApiError(e) ? e.kind : 'error' }
      }
      const fields: FundingAlert['fields'] = []
      if (f.cents !== null && f.cents !== depositAmountOf(r)) fields.push('deposit_amount')
      if (f.cents !== null && payload?.amountCents != null && payload.amountCents !== f.cents) {
        fields.push('qr_amount')
      }
      if (
        f.pixKey !== null &&
        payload?.receiverKey != null &&
        payload.receiverKey.trim() !== f.pixKey.trim()
      ) {
        fields.push('qr_receiver')
      }
      if (fields.length > 0) return { kind: 'mismatch', fields, reason: null }
      if (f.cents === null) return { kind: 'unconfirmed', fields: [], reason: 'incomplete' }
      return null
    },
  }
}

/** The record as the detail sends it under an alert: no payload anywhere (nor in the raw create answer). */
export function withoutPayload(r: DepositRecord): DepositRecord {
  const createResponse =
    r.createResponse === null
      ? null
      : Object.fromEntries(
          Object.entries(r.createResponse).filter(
            ([k]) => !(QR_PAYLOAD_KEYS as readonly string[]).includes(k),
          ),
        )
  return { ...r, qrCopyPaste: null, createResponse }
}
