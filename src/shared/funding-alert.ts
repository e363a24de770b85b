/** The alert shape of "funding shown is funding checked" (issue #24), shared by withdrawals and top-ups. */
import { z } from 'zod'

/**
 * Funding shown is funding checked (issue #24): before an address, an amount or a QR to pay is shown, main asks the
 * service (`GET /withdraw-status`, `GET /deposit-status`) and compares its answer with the stored record. `mismatch`:
 * the service's answer differs from what is stored (the record was changed behind the app, or the service moved);
 * `unconfirmed`: the service could not be asked. Either way nothing payable is shown.
 */
export const FUNDING_ALERT_FIELDS = [
  'deposit_address',
  'deposit_amount',
  'qr_amount',
  'qr_receiver',
  'qr_payload',
] as const
export const fundingAlertSchema = z.object({
  kind: z.enum(['mismatch', 'unconfirmed']),
  /** The stored facts the service's answer contradicts (`mismatch` only). */
  fields: z.array(z.enum(FUNDING_ALERT_FIELDS)),
  /** `unconfirmed`: the API error kind (for "Detalhes técnicos"), or `incomplete` when the answer lacked a fact. */
  reason: z.string().nullable(),
})
export type FundingAlert = z.infer<typeof fundingAlertSchema>
