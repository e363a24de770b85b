/**
 * Everything one sandbox instance holds, wired together: clock, options, stores, auth, rate limits, faults,
 * request counts. The HTTP server and the control surface both work on this object.
 */
import { DEFAULT_RATE_LIMITS, ENDPOINTS, type EndpointName } from '../../shared/api-limits'
import { Auth } from './auth'
import { SandboxClock } from './clock'
import { Deposits } from './deposits'
import { EndUsers } from './end-users'
import { badInput } from './errors'
import { Faults } from './faults'
import { TokenBuckets } from './rate-limit'
import { TokenService } from './tokens'
import type { RuntimeOptions, SandboxOptions } from './types'
import { Withdrawals } from './withdrawals'

/** The partner the sandbox account belongs to: the `sub` claim of its tokens. */
export const SANDBOX_PARTNER_ID = 'sandbox-partner'

export const DEFAULT_RUNTIME_OPTIONS: Readonly<RuntimeOptions> = {
  minimalCreateResponse: false,
  partnerRateBps: 100,
  dailyCapPerTaxNumberCents: 2_000_000,
  depositFeeCents: 99,
  requireDepositIdentification: true,
  payerDailyLimitCents: 1_000_000,
  withdrawalTtlSeconds: 1800,
  depositTtlSeconds: 1800,
  depositSendSeconds: 10,
  autoSettleSeconds: null,
  defaultDepixAddress: null,
}

function checkRuntimeOptions(o: Partial<RuntimeOptions>): void {
  const nonNegInt = (k: keyof RuntimeOptions, max = Number.MAX_SAFE_INTEGER): void => {
    const v = o[k]
    if (v !== undefined && (!Number.isSafeInteger(v) || (v as number) < 0 || (v as number) > max)) {
      throw badInput(`${k} must be an integer from 0 to ${max}`)
    }
  }
  nonNegInt('partnerRateBps', 9999)
  nonNegInt('dailyCapPerTaxNumberCents')
  nonNegInt('depositFeeCents')
  nonNegInt('payerDailyLimitCents')
  nonNegInt('withdrawalTtlSeconds')
  nonNegInt('depositTtlSeconds')
  nonNegInt('depositSendSeconds')
  if (o.autoSettleSeconds !== undefined && o.autoSettleSeconds !== null) nonNegInt('autoSettleSeconds')
  for (const k of ['minimalCreateResponse', 'requireDepositIdentification'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') throw badInput(`${k} must be a boolean`)
  }
  const addr = o.defaultDepixAddress
  if (addr !== undefined && addr !== null && typeof addr !== 'string') {
    throw badInput('defaultDepixAddress: string')
  }
}

export function checkRateLimits(limits: unknown): Partial<Record<EndpointName, number>> {
  if (typeof limits !== 'object' || limits === null) throw badInput('limits must be an object')
  for (const [k, v] of Object.entries(limits)) {
    if (!(ENDPOINTS as readonly string[]).includes(k)) throw badInput(`unknown endpoint: ${k}`)
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      throw badInput(`${k}: a positive number of ops/min`)
    }
  }
  return limits as Partial<Record<EndpointName, number>>
}

export class SandboxCore {
  readonly clock = new SandboxClock()
  readonly opts: RuntimeOptions
  readonly rateLimits: Record<EndpointName, number>
  readonly buckets = new TokenBuckets()
  readonly faults = new Faults()
  readonly users = new EndUsers()
  readonly tokens: TokenService
  readonly auth: Auth
  readonly withdrawals: Withdrawals
  readonly deposits: Deposits
  readonly counts = new Map<string, number>()
  maintenance = false

  constructor(o: SandboxOptions = {}) {
    const runtime: Partial<RuntimeOptions> = {}
    for (const k of Object.keys(DEFAULT_RUNTIME_OPTIONS) as Array<keyof RuntimeOptions>) {
      if (o[k] !== undefined) (runtime as Record<string, unknown>)[k] = o[k]
    }
    checkRuntimeOptions(runtime)
    this.opts = { ...DEFAULT_RUNTIME_OPTIONS, ...runtime }
    this.rateLimits = { ...DEFAULT_RATE_LIMITS, ...checkRateLimits(o.rateLimits ?? {}) }
    this.tokens = new TokenService(this.clock, o.env ?? 'sandbox', SANDBOX_PARTNER_ID)
    this.auth = new Auth(this.clock, this.tokens, this.buckets, {
      accessTokenTtlSeconds: o.accessTokenTtlSeconds ?? 900,
      refreshIdleSeconds: o.refreshIdleSeconds ?? 3600,
      sessionMaxSeconds: o.sessionMaxSeconds ?? 43_200,
      loginRateLimitPerMinute: o.loginRateLimitPerMinute ?? 10,
      maxCredentials: o.maxCredentials ?? 10,
    })
    this.withdrawals = new Withdrawals(this.clock, this.opts, this.users)
    this.deposits = new Deposits(this.clock, this.opts, this.users)
  }

  setOptions(o: Partial<RuntimeOptions>): void {
    if (typeof o !== 'object' || o === null) throw badInput('options must be an object')
    for (const k of Object.keys(o))
      if (!Object.hasOwn(DEFAULT_RUNTIME_OPTIONS, k)) throw badInput(`unknown option: ${k}`)
    checkRuntimeOptions(o)
    Object.assign(this.opts, o)
  }

  setRateLimits(limits: Partial<Record<EndpointName, number>>): void {
    Object.assign(this.rateLimits, checkRateLimits(limits))
  }

  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }
}
