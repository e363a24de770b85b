/**
 * The operation endpoints: method, path, response schema, and the exact bodies sent. Paths are built here and
 * nowhere else, from the shared endpoint names (docs/API-CONTRACT.md#s4: each name is its path under `/api`).
 */
import type { z } from 'zod'
import type { EndpointName } from '../../shared/api-limits'
import type { WithdrawRequest } from '../../shared/withdrawal'
import {
  depositCreatedSchema,
  depositStatusSchema,
  depositsSchema,
  pingSchema,
  successEnvelope,
  userInfoSchema,
  withdrawCreatedSchema,
  withdrawalStatusSchema,
} from './envelope'
import { ApiError } from './errors'

export const API_PREFIX = '/api'
export const AUTH_PREFIX = '/api/v2/auth'

export interface EndpointDef<S extends z.ZodType = z.ZodType> {
  name: EndpointName
  method: 'GET' | 'POST'
  path: string
  /** The whole success body, envelope included. */
  envelope: ReturnType<typeof successEnvelope<S>>
  /** POST /withdraw and /deposit: never retried by any layer; ambiguous answers are outcome_unknown. */
  creates: boolean
  /** Where a create's new id sits, to salvage it from a body that otherwise breaks the contract. */
  createdIdKey?: 'withdrawalId' | 'id'
}

function def<S extends z.ZodType>(
  name: EndpointName,
  method: 'GET' | 'POST',
  schema: S,
  createdIdKey?: 'withdrawalId' | 'id',
): EndpointDef<S> {
  const creates = method === 'POST'
  return {
    name,
    method,
    path: `${API_PREFIX}/${name}`,
    envelope: successEnvelope(schema),
    creates,
    createdIdKey,
  }
}

export const ENDPOINT_DEFS = {
  ping: def('ping', 'GET', pingSchema),
  withdraw: def('withdraw', 'POST', withdrawCreatedSchema, 'withdrawalId'),
  'withdraw-status': def('withdraw-status', 'GET', withdrawalStatusSchema),
  deposit: def('deposit', 'POST', depositCreatedSchema, 'id'),
  'deposit-status': def('deposit-status', 'GET', depositStatusSchema),
  deposits: def('deposits', 'GET', depositsSchema),
  'user-info': def('user-info', 'GET', userInfoSchema),
} as const satisfies Record<EndpointName, EndpointDef>

export const AUTH_PATHS = {
  'auth/login': `${AUTH_PREFIX}/login`,
  'auth/refresh': `${AUTH_PREFIX}/refresh`,
  'auth/logout': `${AUTH_PREFIX}/logout`,
} as const
export type AuthEndpoint = keyof typeof AUTH_PATHS

/** docs/API-CONTRACT.md#s4-2 parameters shown. `depixAddress` may be omitted when the account has a default address. */
export interface DepositRequest {
  amountInCents: number
  depixAddress?: string
  depixSplitAddress?: string
  /** Percent, > 0 and ≤ 20. Not money: a percentage, so a float is allowed. */
  splitFee?: number
  endUserTaxNumber?: string
  euid?: string
  merchantId?: string
  delayDepixInHours?: number
}

function refuse(endpoint: EndpointName): never {
  throw new ApiError({ kind: 'bad_request', code: 'invalid_request', endpoint })
}

function isPositiveInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0
}

function putString(out: Record<string, unknown>, key: string, value: unknown, endpoint: EndpointName): void {
  if (value === undefined) return
  if (typeof value !== 'string' || value === '') refuse(endpoint)
  out[key] = value
}

/**
 * The exact body of POST /withdraw, built field by field so nothing unexpected leaves (a stray property of the
 * caller's object, or both amounts, which the design forbids). Range rules belong to the form and the service.
 */
export function withdrawBody(req: WithdrawRequest): string {
  const r = req as Record<string, unknown>
  const out: Record<string, unknown> = {}
  putString(out, 'pixKey', r.pixKey ?? '', 'withdraw')
  putString(out, 'taxNumber', r.taxNumber, 'withdraw')
  putString(out, 'euid', r.euid, 'withdraw')
  putString(out, 'refundAddress', r.refundAddress, 'withdraw')
  const hasDeposit = r.depositAmountInCents !== undefined
  const hasPayout = r.payoutAmountInCents !== undefined
  if (hasDeposit === hasPayout) refuse('withdraw')
  const amount = hasDeposit ? r.depositAmountInCents : r.payoutAmountInCents
  if (!isPositiveInteger(amount)) refuse('withdraw')
  out[hasDeposit ? 'depositAmountInCents' : 'payoutAmountInCents'] = amount
  return JSON.stringify(out)
}

export function depositBody(req: DepositRequest): string {
  const r = req as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  if (!isPositiveInteger(r.amountInCents)) refuse('deposit')
  out.amountInCents = r.amountInCents
  putString(out, 'depixAddress', r.depixAddress, 'deposit')
  putString(out, 'depixSplitAddress', r.depixSplitAddress, 'deposit')
  if (r.splitFee !== undefined) {
    if (typeof r.splitFee !== 'number' || !Number.isFinite(r.splitFee)) refuse('deposit')
    out.splitFee = r.splitFee
  }
  putString(out, 'endUserTaxNumber', r.endUserTaxNumber, 'deposit')
  putString(out, 'euid', r.euid, 'deposit')
  putString(out, 'merchantId', r.merchantId, 'deposit')
  if (r.delayDepixInHours !== undefined) {
    if (!isPositiveInteger(r.delayDepixInHours)) refuse('deposit')
    out.delayDepixInHours = r.delayDepixInHours
  }
  return JSON.stringify(out)
}

/** Query values must be non-empty strings; only the keys listed as optional may be left out. */
export function query(
  endpoint: EndpointName,
  values: Record<string, string | undefined>,
  optional: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined && optional.includes(key)) continue
    if (typeof value !== 'string' || value === '') refuse(endpoint)
    out[key] = value
  }
  return out
}
