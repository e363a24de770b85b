/**
 * IPC of the app and its session: what runs, who is signed in at the service for the active profile (never a
 * token), the API allowance, and main waiting on a create before a switch or quit. Spread into `channels` and
 * `events` (contract.ts); imports nothing from contract.ts.
 */
import { z } from 'zod'
import { ENDPOINTS } from './api-limits'
import { liquidNetworkSchema } from './profile'

const none = z.undefined()

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** True while the active profile is the embedded sandbox. */
  sandbox: z.boolean(),
  profileName: z.string().optional(),
  network: liquidNetworkSchema.optional(),
})
export type AppInfo = z.infer<typeof appInfoSchema>

export const sessionViewSchema = z.object({
  kind: z.enum(['client_credentials', 'legacy_token']),
  sub: z.string().nullable(),
  scopes: z.array(z.string()),
  env: z.string().nullable(),
  accessExpiresAt: z.string().nullable(),
  /** A live profile whose token looks like sandbox, or the reverse. */
  envWarning: z.enum(['sandbox_token_on_live', 'live_token_on_sandbox']).nullable(),
})
export type SessionView = z.infer<typeof sessionViewSchema>

export const allowanceSchema = z.object({
  /** In force: below `configuredPerMinute` when the client lowered it after repeated 429s. */
  limitPerMinute: z.number(),
  configuredPerMinute: z.number().optional(),
  available: z.number(),
  nextTokenInMs: z.number(),
})
export const allowancesSchema = z.record(z.enum(ENDPOINTS), allowanceSchema)
export type Allowances = z.infer<typeof allowancesSchema>

export const sessionChannels = {
  'app:info': { input: none, output: appInfoSchema },

  'session:get': { input: none, output: sessionViewSchema.nullable() },
  'session:signIn': { input: none, output: sessionViewSchema },
  'session:signOut': { input: none, output: z.null() },

  'allowance:get': { input: none, output: allowancesSchema },
} as const

export const sessionEvents = {
  'session:changed': sessionViewSchema.nullable(),
  'allowance:changed': allowancesSchema,
  /**
   * Main is waiting before a profile switch or quit: a create's POST is in flight and cutting it would leave the
   * withdrawal's fate unknown. Null when the wait is over.
   */
  'app:waiting': z
    .object({
      reason: z.literal('create_in_flight'),
      action: z.enum(['switch_profile', 'quit']),
      creates: z.number().int(),
    })
    .nullable(),
} as const
