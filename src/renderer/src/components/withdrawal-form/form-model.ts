/**
 * The withdrawal form's values and their translation to and from the shared draft. Pure: no React, so the
 * mapping that decides what is sent can be unit-tested on its own.
 *
 * The form holds ONE amount (`amountCents`) whose meaning is the radio `amountKind`: a request with both amounts
 * cannot be expressed, so it can never be sent (the API refuses it with CONFLICTING_PARAMETERS).
 */
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod'
import type { IpcError } from '../../../../shared/contract'
import type { PixKeyType } from '../../../../shared/pix-key'
import { normalizeTaxId, taxIdKind } from '../../../../shared/tax-id'
import {
  withdrawalDraftSchema,
  withdrawalMessages,
  type WithdrawalAmount,
  type WithdrawalDraft,
} from '../../../../shared/withdrawal'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'

export type AmountKind = WithdrawalAmount['kind']

export interface WithdrawalFormValues {
  pixKey: string
  /** '' is "Automático": the type is detected from the key. */
  pixKeyType: '' | PixKeyType
  taxNumber: string
  euid: string
  amountKind: AmountKind
  /** Null until something is typed. Always whole cents: the input is a cents mask. */
  amountCents: number | null
  refundAddress: string
  /** The payee-book entry chosen (issue #14); '' or absent: none. */
  payeeId?: string
  /** References (what the payment is for); blank means none. */
  invoice?: string
  costCentre?: string
  category?: string
  note?: string
}

/** The reference fields of the form, by the draft's `references` member they fill. */
export const REFERENCE_FORM_FIELDS = ['invoice', 'costCentre', 'category', 'note'] as const

export type FormField = keyof WithdrawalFormValues

export const FORM_FIELDS: readonly FormField[] = [
  'pixKey',
  'pixKeyType',
  'taxNumber',
  'euid',
  'amountKind',
  'amountCents',
  'refundAddress',
  'payeeId',
  ...REFERENCE_FORM_FIELDS,
]

export const EMPTY_FORM: WithdrawalFormValues = {
  pixKey: '',
  pixKeyType: '',
  taxNumber: '',
  euid: '',
  amountKind: 'payout',
  amountCents: null,
  refundAddress: '',
  payeeId: '',
  invoice: '',
  costCentre: '',
  category: '',
  note: '',
}

/** Where form-level problems (unknown field, a refusal that names no field we show) are kept. */
export const ROOT_FIELD = 'root.server'

/**
 * The draft main receives. Blank optional fields are left out (the schema reads them as absent anyway); a missing
 * amount stays missing so the schema names it (`amount_required`) instead of us inventing a zero.
 */
export function toDraft(v: WithdrawalFormValues): WithdrawalDraft {
  const amount = { kind: v.amountKind, ...(v.amountCents === null ? {} : { cents: v.amountCents }) }
  // Blank references are left out; the rest go as typed (the schema trims and checks them).
  const references = Object.fromEntries(
    REFERENCE_FORM_FIELDS.flatMap((f) => {
      const text = v[f] ?? ''
      return text.trim() === '' ? [] : [[f, text]]
    }),
  )
  return {
    pixKey: v.pixKey,
    ...(v.pixKeyType === '' ? {} : { pixKeyType: v.pixKeyType }),
    ...(v.taxNumber.trim() === '' ? {} : { taxNumber: v.taxNumber }),
    ...(v.euid.trim() === '' ? {} : { euid: v.euid }),
    amount: amount as WithdrawalAmount,
    refundAddress: v.refundAddress,
    ...(Object.keys(references).length > 0 ? { references } : {}),
    ...(v.payeeId ? { payeeId: v.payeeId } : {}),
  }
}

/**
 * A draft path ("amount.cents", "draft.pixKey", "pixKey"…) as the form field that shows it. Main's `error.fields`
 * name paths of the channel input, so a leading "draft." is dropped.
 */
export function draftPathToField(path: string): FormField | typeof ROOT_FIELD {
  const p = path.startsWith('draft.') ? path.slice('draft.'.length) : path
  if (p === 'amount' || p === 'amount.cents') return 'amountCents'
  if (p === 'amount.kind') return 'amountKind'
  if (p.startsWith('references.')) {
    const f = p.slice('references.'.length)
    return (REFERENCE_FORM_FIELDS as readonly string[]).includes(f) ? (f as FormField) : ROOT_FIELD
  }
  return (FORM_FIELDS as readonly string[]).includes(p) ? (p as FormField) : ROOT_FIELD
}

/** A message code (ours or main's) in words; a code we do not know is shown as is rather than hidden. */
export function describeCode(code: string, lang: 'pt-BR' | 'en'): string {
  return Object.hasOwn(withdrawalMessages, code)
    ? withdrawalMessages[code as keyof typeof withdrawalMessages][lang]
    : code
}

/** Field → code from main's `error.fields`; the first code of a field wins, as in `describeDraftIssues`. */
export function fieldCodesFromIpc(fields: Record<string, string> | undefined): Array<[string, string]> {
  const out = new Map<string, string>()
  for (const [path, code] of Object.entries(fields ?? {})) {
    const field = draftPathToField(path)
    if (!out.has(field)) out.set(field, code)
  }
  return [...out]
}

function leaves(
  errors: Record<string, unknown>,
  prefix = '',
): Array<[string, { type?: unknown; message?: unknown }]> {
  const out: Array<[string, { type?: unknown; message?: unknown }]> = []
  for (const [k, v] of Object.entries(errors)) {
    if (typeof v !== 'object' || v === null) continue
    const path = prefix ? `${prefix}.${k}` : k
    if ('message' in v && typeof (v as { message: unknown }).message === 'string') out.push([path, v])
    else out.push(...leaves(v as Record<string, unknown>, path))
  }
  return out
}

/** zodResolver's nested errors (draft paths) as flat form-field errors; the message stays the stable code. */
export function remapDraftErrors(errors: Record<string, unknown>): FieldErrors<WithdrawalFormValues> {
  const out: Record<string, { type: string; message: string }> = {}
  for (const [path, err] of leaves(errors)) {
    const field = draftPathToField(path)
    if (field === ROOT_FIELD || Object.hasOwn(out, field)) continue
    out[field] = { type: typeof err.type === 'string' ? err.type : 'validate', message: String(err.message) }
  }
  return out as FieldErrors<WithdrawalFormValues>
}

// The shared schema is typed for `unknown` input (main parses anything); here its input is our draft.
const draftZodResolver = zodResolver(withdrawalDraftSchema as z.ZodType<WithdrawalDraft, FieldValues>)

/**
 * The form validates exactly what will be sent: its values are turned into the draft and checked by the shared
 * `withdrawalDraftSchema` through the zod resolver, then the issues are put back on the form's own fields.
 */
export const withdrawalFormResolver: Resolver<WithdrawalFormValues> = async (values, context, options) => {
  const result = await draftZodResolver(
    toDraft(values) as unknown as FieldValues,
    context,
    options as unknown as Parameters<typeof draftZodResolver>[2],
  )
  const errors = remapDraftErrors(result.errors as Record<string, unknown>)
  return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors }
}

/** Maximum digits the amount mask keeps: R$ 9.999.999.999,99, far above any allowed amount yet exact. */
const AMOUNT_MAX_DIGITS = 12

/**
 * The cents mask: every digit typed shifts in from the right ("1", "19", "199" → R$ 0,01, R$ 0,19, R$ 1,99), other
 * characters are ignored. What the field shows is therefore always exactly the amount that will be sent.
 */
export function centsFromTypedDigits(input: string): number | null {
  const digits = input.replace(/[^0-9]/g, '').replace(/^0+/, '')
  if (digits === '') return input.replace(/[^0-9]/g, '') === '' ? null : 0
  return Number(digits.slice(-AMOUNT_MAX_DIGITS))
}

const TAX_ID_TYPED = /^[0-9A-Za-z.\-/\s]*$/

function maskGroups(s: string, groups: readonly number[], seps: readonly string[]): string {
  let out = ''
  let i = 0
  groups.forEach((size, g) => {
    const part = s.slice(i, i + size)
    if (part === '') return
    if (g > 0) out += seps[g - 1]
    out += part
    i += size
  })
  return out
}

/**
 * CPF/CNPJ masked while typed: up to 11 digits take the CPF mask (000.000.000-00); a 12th character or a letter
 * (alphanumeric CNPJ, 2026) switches to the CNPJ mask (00.000.000/0000-00). Input with characters no tax id has,
 * or longer than a CNPJ, is left exactly as typed so the validation can point at it instead of a silent fix.
 */
export function maskTaxIdAsTyped(input: string): string {
  if (!TAX_ID_TYPED.test(input)) return input
  const s = input.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (c) => c.toUpperCase())
  if (s.length > 14) return input
  if (s.length <= 11 && /^[0-9]*$/.test(s)) return maskGroups(s, [3, 3, 3, 2], ['.', '.', '-'])
  return maskGroups(s, [2, 3, 3, 4, 2], ['.', '.', '/', '-'])
}

export type TaxIdLive =
  | { state: 'empty' }
  | { state: 'incomplete' }
  | { state: 'valid'; kind: 'cpf' | 'cnpj'; normalized: string }
  | { state: 'invalid' }

/** What to tell the user while the CPF/CNPJ is typed: nothing to judge until it has a tax id's length. */
export function taxIdLiveState(input: string): TaxIdLive {
  if (input.trim() === '') return { state: 'empty' }
  const n = normalizeTaxId(input)
  if (n === null) {
    const compact = input.replace(/[.\-/\s]/g, '')
    return compact.length < 11 || (compact.length > 11 && compact.length < 14 && TAX_ID_TYPED.test(input))
      ? { state: 'incomplete' }
      : { state: 'invalid' }
  }
  const kind = taxIdKind(n)
  return kind === null ? { state: 'invalid' } : { state: 'valid', kind, normalized: n }
}

/** The one amount a request body carries; null if it carries none or both (which this app never builds). */
export function requestAmount(req: Record<string, unknown>): { kind: AmountKind; cents: number } | null {
  const deposit = req['depositAmountInCents']
  const payout = req['payoutAmountInCents']
  if (typeof deposit === 'number' && payout === undefined) return { kind: 'deposit', cents: deposit }
  if (typeof payout === 'number' && deposit === undefined) return { kind: 'payout', cents: payout }
  return null
}

/**
 * A record's create refusal as an IpcError, so it is shown like every other error: codes, the service's own
 * text, the request id, when to retry. The ledger keeps extra facts (retry-after, denial message, support
 * reference) next to the named ones; they are read defensively. `nowMs` makes the retry time relative to when
 * the refusal was recorded, not to when it is shown.
 */
export function recordErrorToIpc(record: WithdrawalRecord, nowMs: number = Date.now()): IpcError {
  const e = record.error
  if (!e) return { code: record.localState, message: record.localState, requestId: record.requestId }
  const extra = e as Record<string, unknown>
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
  const user = extra['userMessage']
  const userMessage =
    typeof user === 'object' &&
    user !== null &&
    typeof (user as Record<string, unknown>)['pt-BR'] === 'string' &&
    typeof (user as Record<string, unknown>)['en'] === 'string'
      ? (user as { 'pt-BR': string; en: string })
      : undefined
  const reference = str(extra['supportReference'])
  const service = [str(e.message), str(extra['denialMessage'])].filter((x): x is string => x !== null)
  if (reference && !service.some((m) => m.includes(reference))) service.push(`ref. ${reference}`)
  const retry = extra['retryAfterSeconds']
  const recordedAt = Date.parse(record.updatedAt)
  const retryLeft =
    typeof retry === 'number' && Number.isFinite(retry)
      ? Math.max(0, retry - (Number.isNaN(recordedAt) ? 0 : Math.max(0, (nowMs - recordedAt) / 1000)))
      : undefined
  return {
    code: e.kind,
    kind: e.kind,
    message: e.message ?? e.kind,
    status: e.status,
    requestId: e.requestId ?? record.requestId,
    ...(e.messageCode ? { messageCode: e.messageCode } : {}),
    ...(e.denialCode ? { denialCode: e.denialCode } : {}),
    ...(service.length ? { serviceMessage: service.join(' — ') } : {}),
    ...(retryLeft !== undefined ? { retryAfterSeconds: retryLeft } : {}),
    ...(userMessage ? { userMessage } : {}),
  }
}
