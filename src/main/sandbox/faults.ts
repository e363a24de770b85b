/**
 * Injected faults: a queue of "next N matching requests" rules. Each request takes at most one fault, the
 * first whose endpoint matches (no endpoint = any API request). Control routes never take faults.
 */
import type { EndpointName } from '../../shared/api-limits'
import { ENDPOINTS } from '../../shared/api-limits'
import { badInput } from './errors'
import type { Fault, FaultTarget } from './types'

interface ArmedFault {
  fault: Fault
  left: number
}

const KINDS = new Set(['slow', 'reset', 'malformed_json', 'timeout_after_create', 'status', 'refusal'])

export function validateFault(f: unknown): Fault {
  if (typeof f !== 'object' || f === null) throw badInput('fault must be an object')
  const o = f as Record<string, unknown>
  if (typeof o.kind !== 'string' || !KINDS.has(o.kind)) {
    throw badInput('kind must be slow, reset, malformed_json, timeout_after_create, status or refusal')
  }
  if (
    o.endpoint !== undefined &&
    o.endpoint !== 'auth' &&
    !(ENDPOINTS as readonly unknown[]).includes(o.endpoint)
  ) {
    throw badInput(`endpoint must be one of ${ENDPOINTS.join(', ')} or auth`)
  }
  if (o.count !== undefined && (!Number.isSafeInteger(o.count) || (o.count as number) < 1)) {
    throw badInput('count must be a positive integer')
  }
  if (o.kind === 'slow' && (typeof o.delayMs !== 'number' || !(o.delayMs >= 0) || o.delayMs > 600_000)) {
    throw badInput('delayMs must be a number from 0 to 600000')
  }
  const needsStatus = o.kind === 'status' || (o.kind === 'refusal' && o.status !== undefined)
  if (
    needsStatus &&
    (!Number.isSafeInteger(o.status) || (o.status as number) < 100 || (o.status as number) > 599)
  ) {
    throw badInput('status must be an HTTP status code')
  }
  for (const k of ['messageCode', 'denialCode', 'errorMessage']) {
    if (o[k] !== undefined && typeof o[k] !== 'string') throw badInput(`${k} must be a string`)
  }
  return o as unknown as Fault
}

export class Faults {
  private armed: ArmedFault[] = []

  inject(f: Fault): void {
    const fault = validateFault(f)
    this.armed.push({ fault, left: fault.count ?? 1 })
  }

  clear(): void {
    this.armed = []
  }

  /** Takes (and consumes one use of) the first fault that matches `target`. */
  take(target: EndpointName | 'auth'): Fault | undefined {
    if (this.armed.length === 0) return undefined
    const i = this.armed.findIndex(
      (a) => a.fault.endpoint === undefined || a.fault.endpoint === (target as FaultTarget),
    )
    if (i < 0) return undefined
    const a = this.armed[i] as ArmedFault
    a.left -= 1
    if (a.left <= 0) this.armed.splice(i, 1)
    return a.fault
  }
}
