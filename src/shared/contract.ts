/**
 * THE IPC contract. Every call from the renderer to main goes through a channel named here, with a zod schema
 * for its input (validated in main; the renderer is untrusted) and for its output (parsed in main before it
 * leaves, which strips any field not named here — the last guard against leaking a secret). Results never throw
 * across IPC: they are `{ ok: true, data }` or `{ ok: false, error }`.
 */
import { z } from 'zod'
import { depositsChannels, depositsEvents } from './channels-deposits'
import { ledgerChannels, ledgerEvents } from './channels-ledger'
import { notificationsEvents } from './channels-notifications'
import { payeesChannels } from './channels-payees'
import { profilesChannels, profilesEvents } from './channels-profiles'
import { receiptsChannels, receiptsEvents } from './channels-receipts'
import { recordsChannels, recordsEvents } from './channels-records'
import { reviewChannels } from './channels-review'
import { runsChannels, runsEvents } from './channels-runs'
import { sandboxChannels } from './channels-sandbox'
import { sessionChannels, sessionEvents } from './channels-session'
import { shellChannels } from './channels-shell'
import { teamChannels, teamConnectionChannels, teamEvents } from './channels-team'
import { walletChannels, walletEvents } from './channels-wallet'
import { walletPayEvents } from './channels-wallet-pay'
import { walletPayChannels } from './channels-wallet-pay'
import { withdrawalsChannels, withdrawalsEvents } from './channels-withdrawals'

export const ipcErrorSchema = z.object({
  /** Stable code: `invalid_input`, `unknown_channel`, `internal`, an ApiError kind, or a service's own code. */
  code: z.string(),
  /** English fallback text; the renderer shows its own translation of `code` where it has one. */
  message: z.string(),
  /** Present when the failure came from the DePix API (an ApiError kind). */
  kind: z.string().optional(),
  status: z.number().int().nullable().optional(),
  requestId: z.string().nullable().optional(),
  messageCode: z.string().optional(),
  denialCode: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
  /** The service's own free text, shown raw next to our message, never parsed. */
  serviceMessage: z.string().optional(),
  /** End-user sentence for API errors, in pt-BR and en. */
  userMessage: z.object({ 'pt-BR': z.string(), en: z.string() }).optional(),
  /** Field-level refusals of validated input, by field path: stable message codes. */
  fields: z.record(z.string(), z.string()).optional(),
  /** A finer machine reason (e.g. the Liquid helper's refusal behind `refund_address_invalid`). */
  reason: z.string().optional(),
  /** Records concerned (e.g. the similar withdrawals behind a `duplicate` refusal), by local id. */
  localIds: z.array(z.string()).optional(),
})
// Not loose: whatever a mapper puts on an error, only the fields named here cross to the renderer.
export type IpcError = z.infer<typeof ipcErrorSchema>

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError }

// Each feature's channels live in its own file (channels-X.ts ↔ src/main/app/X-handlers.ts); their schemas and
// types are re-exported here so that `shared/contract` stays the one name the two sides import.
export * from './channels-ledger'
export * from './channels-profiles'
export * from './channels-records'
export * from './channels-review'
export * from './channels-session'
export * from './channels-shell'
export * from './channels-withdrawals'
export { FUNDING_ALERT_FIELDS, fundingAlertSchema, type FundingAlert } from './funding-alert'
export { unknownResolutionSchema } from './withdrawal-record'
export { folderTokenSchema } from './folder-token'

export const channels = {
  ...sessionChannels,
  ...profilesChannels,
  ...withdrawalsChannels,
  ...sandboxChannels,
  ...shellChannels,
  ...recordsChannels,
  ...reviewChannels,
  ...ledgerChannels,
  ...payeesChannels,
  ...receiptsChannels,
  ...runsChannels,
  ...depositsChannels,
  ...teamConnectionChannels,
  ...teamChannels,
  ...walletChannels,
  ...walletPayChannels,
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>

/** Events pushed from main to the renderer. */
export const events = {
  ...withdrawalsEvents,
  ...sessionEvents,
  ...profilesEvents,
  ...recordsEvents,
  ...ledgerEvents,
  ...notificationsEvents,
  ...receiptsEvents,
  ...runsEvents,
  ...depositsEvents,
  ...teamEvents,
  ...walletEvents,
  ...walletPayEvents,
} as const satisfies Record<string, z.ZodType>
export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name)
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}

/** The one object the preload exposes as `window.treasury`. */
export interface TreasuryBridge {
  invoke<C extends ChannelName>(
    channel: C,
    ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
  ): Promise<IpcResult<ChannelOutput<C>>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}
