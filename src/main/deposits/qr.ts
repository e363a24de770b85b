/**
 * The QR of a deposit as the detail page shows it: the Pix "copia e cola" payload, and its picture only when the
 * payload is a BR Code whose CRC holds. The amount the payload carries is compared with the deposit's: a QR that
 * would charge another amount is shown as a warning, not as something to pay.
 */
import type { DepositQr } from '../../shared/channels-deposits'
import type { FundingAlert } from '../../shared/contract'
import { depositAmountOf, type DepositRecord } from '../../shared/deposit-record'
import { normalizeDepositStatus } from '../../shared/deposit-status'
import { fundingQrSvg } from '../liquid'
import { readBrCode } from './brcode'
import type { DepositQrChecker } from './qr-check'

export async function depositQr(r: DepositRecord): Promise<DepositQr | null> {
  const payload = r.qrCopyPaste
  if (payload === null) return null
  const facts = readBrCode(payload)
  const crcValid = facts?.crcValid ?? false
  const amountCents = facts?.amountCents ?? null
  const amountMatches = amountCents === null || amountCents === depositAmountOf(r)
  return {
    payload,
    svg: crcValid && amountMatches ? await fundingQrSvg(payload) : null,
    crcValid,
    amountCents,
    amountMatches,
  }
}

/**
 * The QR the detail shows: only while the deposit waits for its Pix (a paid, expired or unknown one has nothing to
 * pay), and only once the service confirmed it (qr-check.ts); otherwise no payload at all, and the alert says why.
 */
export async function checkedDepositQr(
  r: DepositRecord,
  checker: DepositQrChecker,
): Promise<{ qr: DepositQr | null; alert: FundingAlert | null }> {
  const payable =
    r.localState === 'created' &&
    r.qrCopyPaste !== null &&
    (r.remoteStatus === null || normalizeDepositStatus(r.remoteStatus) === 'pending')
  if (!payable) return { qr: null, alert: null }
  const alert = await checker.check(r, readBrCode(r.qrCopyPaste as string))
  if (alert !== null) return { qr: null, alert }
  return { qr: await depositQr(r), alert: null }
}
