/**
 * Whether a payment needs the desk's confirmation (issue #26): a live profile, a limit set, and an amount (as
 * typed in the form) above it. One rule for the review step and for main's check (app/desk-confirmation.ts).
 */
import type { ProfileKind } from './profile'

export function needsDeskConfirmation(
  kind: ProfileKind,
  limitCents: number | null,
  amountCents: number,
): boolean {
  return kind === 'live' && limitCents !== null && amountCents > limitCents
}
