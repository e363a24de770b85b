/** Amounts the Sandbox tools send to fund a withdrawal: exact, or beyond the ±5% tolerance either way. */
import { FUNDING_TOLERANCE_BPS } from '../../shared/api-limits'

export type FundingMode = 'exact' | 'over_tolerance' | 'under_tolerance'

/** One percentage point past the tolerance, so the sandbox must treat it as a mismatch (docs/API-CONTRACT.md#s3-2). */
const BEYOND_BPS = FUNDING_TOLERANCE_BPS + 100

export function fundingAmount(depositCents: number, mode: FundingMode): number {
  if (mode === 'exact') return depositCents
  if (mode === 'over_tolerance') return Math.ceil((depositCents * (10_000 + BEYOND_BPS)) / 10_000)
  return Math.floor((depositCents * (10_000 - BEYOND_BPS)) / 10_000)
}
