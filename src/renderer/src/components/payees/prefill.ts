/**
 * What the payment form starts with when the analyst pays a payee from the book or repeats a payment. Pure: the
 * decisions (which key, which fields carry over, that the amount starts blank) are unit-tested.
 */
import type { Payee } from '../../../../shared/payee'
import { parsePixKey } from '../../../../shared/pix-key'
import { maskTaxId } from '../../../../shared/tax-id'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { EMPTY_FORM, type WithdrawalFormValues } from '../withdrawal-form/form-model'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** A payee's details in the form: their first key (with its type), document, EUID, and the link to the entry. */
export function withPayee(values: WithdrawalFormValues, p: Payee, key?: string): WithdrawalFormValues {
  const chosen = p.pixKeys.find((k) => k.key === key) ?? p.pixKeys[0]
  return {
    ...values,
    pixKey: chosen?.key ?? '',
    pixKeyType: chosen?.type ?? '',
    taxNumber: maskTaxId(p.taxNumber),
    euid: p.euid ?? '',
    payeeId: p.id,
  }
}

/** A new payment to the payee: an empty form with the payee's details. */
export function formForPayee(p: Payee): WithdrawalFormValues {
  return withPayee({ ...EMPTY_FORM }, p)
}

/**
 * Repeating a payment: the same payee (when it was one from the book and still is), Pix key, CPF/CNPJ, EUID,
 * references and refund address, as the request carried them. The amount starts blank, of the same kind: a
 * supplier's next invoice is rarely the same, and a copied amount is one Enter away from a double payment (the
 * duplicate guard would still ask, but only within 24 hours). The form offers the previous amount in one click.
 */
export function formForRepeat(r: WithdrawalRecord, payeeStillInBook: boolean): WithdrawalFormValues {
  const req = r.request
  const pixKey = str(req['pixKey']) || r.pixKey
  const parsed = parsePixKey(pixKey)
  const tax = str(req['taxNumber'])
  return {
    ...EMPTY_FORM,
    pixKey,
    // The canonical key is sent as it is; its detected type is shown so the form reads the same.
    pixKeyType: parsed.ok ? parsed.type : '',
    taxNumber: tax === '' ? '' : maskTaxId(tax),
    euid: str(req['euid']),
    amountKind: r.amountKind,
    amountCents: null,
    refundAddress: str(req['refundAddress']),
    payeeId: payeeStillInBook && r.expectedPayee ? r.expectedPayee.id : '',
    invoice: r.references?.invoice ?? '',
    costCentre: r.references?.costCentre ?? '',
    category: r.references?.category ?? '',
    note: r.references?.note ?? '',
  }
}
