/**
 * The channels of profiles and settings (src/shared/channels-profiles.ts). Removing or selecting a profile
 * switches the active runtime; the default refund address is checked for the profile's network and audited.
 */
import { SANDBOX_PROFILE_ID } from '../../shared/profile'
import type { profilesChannels } from '../../shared/channels-profiles'
import type { HandlersOf } from '../ipc/router'
import { checkLiquidAddress } from '../liquid'
import type { ProfilesDeps } from './deps'
import { AppError } from './errors'

export function profilesHandlers(deps: ProfilesDeps): HandlersOf<typeof profilesChannels> {
  const { profiles, vault } = deps
  const rt = () => deps.runtime()
  return {
    'profiles:list': () => ({
      profiles: profiles.list(),
      activeId: rt().profile.id,
      vault: { persistent: vault.persistent, reason: vault.reason },
    }),
    'profiles:addLive': (input) => profiles.addLive(input),
    'profiles:setCredentials': ({ id, credentials }) => profiles.setCredentials(id, credentials),
    'profiles:update': ({ id, patch }) => profiles.update(id, patch),
    'profiles:remove': async ({ id }) => {
      if (rt().profile.id === id) await deps.switchProfile(SANDBOX_PROFILE_ID)
      profiles.remove(id)
      return null
    },
    'profiles:select': async ({ id }) => {
      await deps.switchProfile(id)
      const p = profiles.list().find((x) => x.id === id)
      if (!p) throw new AppError('not_found', 'No such profile.')
      return p
    },
    'settings:get': () => profiles.settings(),
    'settings:update': (patch) => profiles.updateSettings(patch),

    'profiles:setDefaultRefundAddress': ({ address }) => {
      const profile = rt().profile
      let value: string | null = null
      if (address !== null && address.trim() !== '') {
        // Checked once here, for this profile's network; the form then only prefills what passed.
        const check = checkLiquidAddress(address.trim(), profile.network)
        if (!check.ok) {
          throw new AppError('refund_address_invalid', `Refund address refused: ${check.message}`, {
            reason: check.reason,
            fields: { address: check.reason },
          })
        }
        value = check.address
      }
      const { profile: saved, previous } = profiles.setDefaultRefundAddress(profile.id, value)
      if (previous !== value) {
        try {
          deps.ledger.appendAudit({
            operator: deps.operator,
            action: 'profile.default_refund_address_changed',
            subject: `profile:${profile.id}`,
            details: { profile: profile.id, from: previous, to: value },
          })
        } catch (e) {
          // No unaudited change: put the previous address back.
          profiles.setDefaultRefundAddress(profile.id, previous)
          throw e
        }
      }
      // The runtime's copy of the profile is what main reads (top-ups, the form's prefill): keep it current.
      if (value === null) delete profile.defaultRefundAddress
      else profile.defaultRefundAddress = value
      return saved
    },
  }
}
