/**
 * The treasury wallet's channels (issue #27): views of the active profile's wallet. A refused descriptor comes
 * back as `invalid_descriptor` with the reason in both languages, never with the pasted text.
 */
import type { Handlers } from '../ipc/router'
import { DescriptorError, formatDescriptorMessage } from '../wallet/descriptor'
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
    'wallet:proposeAddress': () => state.wallet.proposeAddress(profile()),
    'wallet:checkAddress': ({ address }) => state.wallet.addressOwner(profile(), address),
  }
}
