/**
 * IPC of profiles and settings: the profiles on this computer (never a secret: credentials only come in), the
 * active one, the app's settings and the active profile's default refund address. Spread into `channels` and
 * `events` (contract.ts); imports nothing from contract.ts.
 */
import { z } from 'zod'
import {
  credentialsInputSchema,
  newLiveProfileInputSchema,
  profileUpdateSchema,
  publicProfileSchema,
  settingsPatchSchema,
  settingsSchema,
} from './profile'

const none = z.undefined()

export const vaultStatusSchema = z.object({ persistent: z.boolean(), reason: z.string() })

export const profilesChannels = {
  'profiles:list': {
    input: none,
    output: z.object({
      profiles: z.array(publicProfileSchema),
      activeId: z.string(),
      vault: vaultStatusSchema,
    }),
  },
  'profiles:addLive': { input: newLiveProfileInputSchema, output: publicProfileSchema },
  'profiles:setCredentials': {
    input: z.strictObject({ id: z.string(), credentials: credentialsInputSchema }),
    output: publicProfileSchema,
  },
  'profiles:update': {
    input: z.strictObject({ id: z.string(), patch: profileUpdateSchema }),
    output: publicProfileSchema,
  },
  'profiles:remove': { input: z.strictObject({ id: z.string() }), output: z.null() },
  'profiles:select': { input: z.strictObject({ id: z.string() }), output: publicProfileSchema },

  'settings:get': { input: none, output: settingsSchema },
  'settings:update': { input: settingsPatchSchema, output: settingsSchema },
  /**
   * The active profile's default refund address (prefilled in the payment form): checked by main's Liquid helper
   * for the profile's network, refused otherwise; null removes it. Audited.
   */
  'profiles:setDefaultRefundAddress': {
    input: z.strictObject({ address: z.string().max(4096).nullable() }),
    output: publicProfileSchema,
  },
} as const

export const profilesEvents = {
  'profile:changed': z.object({ activeId: z.string() }),
} as const
