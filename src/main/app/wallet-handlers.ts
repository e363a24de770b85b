/**
 * The treasury wallet's channels (issue #27): views of the active profile's wallet. A refused descriptor comes
 * back as `invalid_descriptor` with the reason in both languages, never with the pasted text.
 */
import type { Handlers } from '../ipc/router'
import { DescriptorError, formatDescriptorMessage } from '../wallet/descriptor'
import {
  labelMovement,
  labelTeamMovement,
  MOVEMENT_LABEL_MAX,
  movementLabelTextSchema,
  teamMovementLabels,
} from '../wallet/labels'
import type { AppState } from './context'
import { AppError } from './errors'

type WalletHandlers = Pick<
  Handlers,
  | 'wallet:get'
  | 'wallet:scan'
  | 'wallet:setDescriptor'
  | 'wallet:clear'
  | 'wallet:proposeAddress'
  | 'wallet:checkAddress'
  | 'wallet:label'
>

export function walletHandlers(state: AppState): WalletHandlers {
  // The stored profile, not the runtime's copy: its Esplora URL may have changed in Configurações since it opened.
  const profile = () => {
    const open = state.runtime().profile
    return state.profiles.get(open.id) ?? open
  }
  return {
    'wallet:get': () => state.wallet.view(profile()),
    'wallet:scan': () => state.wallet.scan(profile()),
    'wallet:setDescriptor': ({ descriptor }) => {
      const p = profile()
      if (p.kind === 'sandbox') {
        throw new AppError('not_supported', 'The Sandbox profile uses its own treasury wallet.')
      }
      try {
        return state.wallet.setDescriptor(p, descriptor)
      } catch (e) {
        if (!(e instanceof DescriptorError)) throw e
        const pt = formatDescriptorMessage(e, 'pt-BR', p.network)
        const en = formatDescriptorMessage(e, 'en', p.network)
        throw new AppError('invalid_descriptor', en, {
          userMessage: { 'pt-BR': pt, en },
          fields: { descriptor: e.reason },
        })
      }
    },
    'wallet:clear': () => state.wallet.clear(profile()),
    'wallet:label': async ({ txid, label }) => {
      const p = profile()
      const view = state.wallet.view(p)
      const movement = view.state === 'ready' ? view.movements.find((m) => m.txid === txid) : undefined
      // Only what the ledger cannot explain is labelled: a matched movement already says what it was.
      if (!movement || movement.meaning !== 'other') {
        throw new AppError('not_found', 'No unmatched movement with this txid in the treasury wallet.', {
          userMessage: {
            'pt-BR': 'Esta movimentação não está entre as sem correspondência da carteira da tesouraria.',
            en: 'This movement is not among the treasury wallet’s unmatched ones.',
          },
        })
      }
      const text = movementLabelTextSchema.safeParse(label)
      if (!text.success) {
        throw new AppError('invalid_input', 'Label must be 1–120 visible characters on one line.', {
          userMessage: {
            'pt-BR': `Escreva o rótulo em uma linha, com 1 a ${MOVEMENT_LABEL_MAX} caracteres visíveis.`,
            en: `Write the label on one line, 1 to ${MOVEMENT_LABEL_MAX} visible characters.`,
          },
          fields: { label: 'invalid_value' },
        })
      }
      // On a team the label is the team's (its ledger's audit chain), so every desk shows it.
      const rt = state.runtime()
      const pool = rt.team?.pg?.pool
      if (pool) {
        await labelTeamMovement(rt.withdrawals.store, { txid, label: text.data, operator: state.o.operator })
        state.wallet.useTeamRecords(p.id, { labels: await teamMovementLabels(pool) })
        return state.wallet.view(p)
      }
      labelMovement(state.ledger, { profileId: p.id, txid, label: text.data, operator: state.o.operator })
      return state.wallet.view(p)
    },
    'wallet:proposeAddress': () => state.wallet.proposeAddress(profile()),
    'wallet:checkAddress': ({ address }) => state.wallet.addressOwner(profile(), address),
  }
}
