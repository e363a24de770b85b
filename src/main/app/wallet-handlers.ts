/**
 * The treasury wallet's channels (issue #27): views of the active profile's wallet. A refused descriptor comes
 * back as `invalid_descriptor` with the reason in both languages, never with the pasted text.
 */
import type { walletChannels } from '../../shared/channels-wallet'
import type { HandlersOf } from '../ipc/router'
import { DescriptorError, formatDescriptorMessage } from '../wallet/descriptor'
import {
  labelMovement,
  labelTeamMovement,
  MOVEMENT_LABEL_MAX,
  movementLabelTextSchema,
  teamMovementLabels,
} from '../wallet/labels'
import type { WalletDeps } from './deps'
import { AppError } from './errors'

export function walletHandlers(deps: WalletDeps): HandlersOf<typeof walletChannels> {
  // The stored profile, not the runtime's copy: its Esplora URL may have changed in Configurações since it opened.
  const profile = () => {
    const open = deps.runtime().profile
    return deps.profiles.get(open.id) ?? open
  }
  return {
    'wallet:get': () => deps.wallet.view(profile()),
    'wallet:scan': () => deps.wallet.scan(profile()),
    'wallet:setDescriptor': ({ descriptor }) => {
      const p = profile()
      if (p.kind === 'sandbox') {
        throw new AppError('not_supported', 'The Sandbox profile uses its own treasury wallet.')
      }
      try {
        return deps.wallet.setDescriptor(p, descriptor)
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
    'wallet:clear': () => deps.wallet.clear(profile()),
    'wallet:label': async ({ txid, label }) => {
      const p = profile()
      const view = deps.wallet.view(p)
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
      const rt = deps.runtime()
      const pool = rt.team?.pg?.pool
      if (pool) {
        await labelTeamMovement(rt.withdrawals.store, { txid, label: text.data, operator: deps.operator })
        deps.wallet.useTeamRecords(p.id, { labels: await teamMovementLabels(pool) })
        return deps.wallet.view(p)
      }
      labelMovement(deps.ledger, { profileId: p.id, txid, label: text.data, operator: deps.operator })
      return deps.wallet.view(p)
    },
    'wallet:proposeAddress': () => deps.wallet.proposeAddress(profile()),
    'wallet:checkAddress': ({ address }) => deps.wallet.addressOwner(profile(), address),
  }
}
