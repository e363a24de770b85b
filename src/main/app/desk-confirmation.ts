/**
 * The desk's confirmation of a large live payment (issue #26): on a live profile, above the desk limit of
 * Configurações (`liveConfirmAboveCents`), the analyst types the amount again and main refuses the create unless
 * the typed amount is the draft's. The Sandbox never asks (no real money); a null limit never asks. It is a guard
 * against one careless click on a single desk, not four-eyes (that is the team ledger's approvals).
 */
import { needsDeskConfirmation } from '../../shared/desk-limit'
import type { ProfileKind } from '../../shared/profile'
import { AppError } from './errors'

export function checkDeskConfirmation(
  kind: ProfileKind,
  limitCents: number | null,
  amountCents: number,
  typedCents: number | undefined,
): void {
  if (!needsDeskConfirmation(kind, limitCents, amountCents) || typedCents === amountCents) return
  throw new AppError('amount_confirmation_required', 'The amount typed does not confirm this live payment.', {
    userMessage: {
      'pt-BR':
        'Este pagamento passa do limite de confirmação deste computador: digite o valor do pagamento para confirmar.',
      en: 'This withdrawal is above this computer’s confirmation limit: type its amount to confirm it.',
    },
  })
}
