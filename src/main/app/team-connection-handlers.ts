/**
 * The active profile's team ledger connection (issue #16, Settings → "Livro-caixa da equipe"): read, save and
 * reconnect, test once, forget. The password only comes in (save, test) and stays in main's vault; answers carry
 * `hasPassword`. Saving or forgetting re-opens the active profile's runtime through `switchProfile`, which emits
 * `profile:changed`, so whatever decides the ledger engine from the stored settings sees the new ones.
 */
import type { teamConnectionChannels } from '../../shared/channels-team'
import type { HandlersOf } from '../ipc/router'
import { TeamSettingsRefusal } from '../profiles'
import { probeTeamLedger } from '../profiles/team-probe'
import type { TeamConnectionDeps } from './deps'
import { AppError } from './errors'

const EMPTY = { identity: null, schemaVersion: null, approvalAboveCents: null } as const

export function teamConnectionHandlers(deps: TeamConnectionDeps): HandlersOf<typeof teamConnectionChannels> {
  const { profiles } = deps
  const activeId = (): string => deps.runtime().profile.id

  return {
    'team:get': () => profiles.teamLedger(activeId()),

    'team:save': async ({ settings, password }) => {
      const id = activeId()
      let view
      try {
        view = profiles.saveTeamLedger(id, settings, password)
      } catch (e) {
        if (!(e instanceof TeamSettingsRefusal)) throw e
        const fields = Object.fromEntries(
          Object.entries(e.fields).map(([k, v]) => [k === 'password' ? k : `settings.${k}`, v]),
        )
        throw new AppError('invalid_input', 'Invalid team ledger settings.', { fields })
      }
      await deps.switchProfile(id)
      return view
    },

    'team:test': async (input) => {
      const id = activeId()
      const settings = input?.settings ?? profiles.teamLedger(id).settings
      if (!settings) return { verdict: 'invalid_settings', ...EMPTY, detail: 'no team ledger settings' }
      const password = profiles.teamLedgerPassword(id, settings, input?.password)
      if (password === null) {
        return { verdict: 'no_password', ...EMPTY, detail: 'no password given or stored for these settings' }
      }
      return probeTeamLedger(settings, password)
    },

    'team:forget': async () => {
      const id = activeId()
      const view = profiles.forgetTeamLedger(id)
      await deps.switchProfile(id)
      return view
    },
  }
}
