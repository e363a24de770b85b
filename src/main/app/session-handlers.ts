/** The channels of the app and its session (src/shared/channels-session.ts), for the active profile. */
import type { sessionChannels } from '../../shared/channels-session'
import type { HandlersOf } from '../ipc/router'
import type { SessionDeps } from './deps'
import { AppError } from './errors'
import { sessionView } from './runtime'

export function sessionHandlers(deps: SessionDeps): HandlersOf<typeof sessionChannels> {
  const rt = () => deps.runtime()
  return {
    'app:info': () => {
      const p = rt().profile
      return { ...deps.app, sandbox: p.kind === 'sandbox', profileName: p.name, network: p.network }
    },
    'session:get': () => sessionView(rt().client.session(), rt().profile),
    'session:signIn': async () => {
      const s = await rt().client.signIn()
      const view = sessionView(s, rt().profile)
      if (!view) throw new AppError('not_signed_in', 'Sign-in returned no session.')
      return view
    },
    'session:signOut': async () => {
      await rt().client.signOut()
      return null
    },
    'allowance:get': () => rt().client.allowance(),
  }
}
