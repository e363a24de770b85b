/**
 * End users (EUIDs), blocks and compliance holds. An euid must resolve to a registered end user; a tax number
 * only needs valid check digits (the beneficiary of a withdrawal or the payer of a deposit need not be
 * registered). Blocks and compliance holds are keyed by normalised tax number or by euid.
 */
import { randomBytes } from 'node:crypto'
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../../shared/tax-id'
import { badInput } from './errors'

export interface EndUser {
  euid: string
  taxNumber: string
  name: string
  maxDailyInCents: number
}

/** Pre-registered so that a fresh install's first-run demo has someone to pay (docs/SANDBOX.md). */
export const DEFAULT_END_USER: Readonly<EndUser> = {
  euid: 'EU-SANDBOX-0001',
  taxNumber: '52998224725',
  name: 'Maria da Silva Sandbox',
  maxDailyInCents: 500_000,
}

export const DEFAULT_END_USER_MAX_DAILY_CENTS = 500_000

const EUID_SHAPE = /^[A-Za-z0-9._:-]{1,128}$/

export function isEuidShape(s: string): boolean {
  return EUID_SHAPE.test(s)
}

/** Canonical CPF/CNPJ when the check digits hold, else null. */
export function validTaxNumber(input: string): string | null {
  const n = normalizeTaxId(input)
  return n !== null && (isValidCpf(n) || isValidCnpj(n)) ? n : null
}

export class EndUsers {
  private readonly byEuid = new Map<string, EndUser>()
  private readonly byTax = new Map<string, EndUser>()
  private readonly blockedTax = new Set<string>()
  private readonly blockedEuid = new Set<string>()
  private readonly compliance = new Map<string, string>()

  constructor() {
    this.register(DEFAULT_END_USER)
  }

  register(o: { euid: string; taxNumber: string; name?: string; maxDailyInCents?: number }): EndUser {
    if (typeof o.euid !== 'string' || !isEuidShape(o.euid)) {
      throw badInput('euid must match [A-Za-z0-9._:-]{1,128}')
    }
    const taxNumber = validTaxNumber(String(o.taxNumber))
    if (taxNumber === null) throw badInput('taxNumber must be a CPF or CNPJ with valid check digits')
    const max = o.maxDailyInCents ?? DEFAULT_END_USER_MAX_DAILY_CENTS
    if (!Number.isSafeInteger(max) || max < 0) {
      throw badInput('maxDailyInCents must be a non-negative integer')
    }
    const user: EndUser = {
      euid: o.euid,
      taxNumber,
      name: o.name ?? `End user ${o.euid}`,
      maxDailyInCents: max,
    }
    this.byEuid.set(user.euid, user)
    this.byTax.set(taxNumber, user)
    return user
  }

  get(euid: string): EndUser | undefined {
    return this.byEuid.get(euid)
  }

  byTaxNumber(taxNumber: string): EndUser | undefined {
    return this.byTax.get(taxNumber)
  }

  block(o: { taxNumber?: string; euid?: string }): void {
    if (o.taxNumber === undefined && o.euid === undefined) throw badInput('give taxNumber and/or euid')
    if (o.taxNumber !== undefined) {
      const t = normalizeTaxId(o.taxNumber)
      if (t === null) throw badInput('taxNumber is not a CPF/CNPJ')
      this.blockedTax.add(t)
    }
    if (o.euid !== undefined) this.blockedEuid.add(o.euid)
  }

  /** Blocked when any identifier of the person is: the tax number, the euid, or the euid's tax number. */
  isBlocked(taxNumber: string | undefined, euid: string | undefined): boolean {
    if (taxNumber !== undefined && this.blockedTax.has(taxNumber)) return true
    if (euid === undefined) return false
    if (this.blockedEuid.has(euid)) return true
    const user = this.byEuid.get(euid)
    return user !== undefined && this.blockedTax.has(user.taxNumber)
  }

  complianceBlock(taxNumber: string): void {
    const t = normalizeTaxId(taxNumber)
    if (t === null) throw badInput('taxNumber is not a CPF/CNPJ')
    // One support reference per hold, as an operator would quote it.
    this.compliance.set(t, `CMP-${randomBytes(4).toString('hex').toUpperCase()}`)
  }

  /** The support reference of a compliance hold, or undefined. */
  complianceReference(taxNumber: string | undefined): string | undefined {
    return taxNumber === undefined ? undefined : this.compliance.get(taxNumber)
  }
}
