/**
 * The QR of a deposit as the detail page shows it: the Pix "copia e cola" payload, and its picture only when the
 * payload is a BR Code whose CRC holds. The amount the payload carries is compared with the deposit's: a QR that
 * would charge another amount is shown as a warning, not as something to pay.
 */
import type { DepositQr } from '../../shared/channels-deposits'
import { depositAmountOf, type DepositRecord } from '../../shared/deposit-record'
import { fundingQrSvg } from '../liquid'
import { readBrCode } from './brcode'

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
