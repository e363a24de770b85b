/**
 * THE IPC contract. Every call from the renderer to main goes through a channel named here, with a zod schema
 * for its input (validated in main; the renderer is untrusted) and for its output. Results never throw across
 * IPC: they are `{ ok: true, data }` or `{ ok: false, error }`.
 */
import { z } from 'zod'

export const ipcErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    /** Present when the failure came from the DePix API (an ApiError kind). */
    kind: z.string().optional(),
    requestId: z.string().nullable().optional(),
    /** Field-level refusals of validated input, by field path. */
    fields: z.record(z.string(), z.string()).optional(),
  })
  .loose()
export type IpcError = z.infer<typeof ipcErrorSchema>

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError }

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  sandbox: z.boolean(),
})
export type AppInfo = z.infer<typeof appInfoSchema>

export const channels = {
  'app:info': { input: z.void().or(z.undefined()), output: appInfoSchema },
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>

/** Events pushed from main to the renderer. */
export const events = {} as const satisfies Record<string, z.ZodType>
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
  invoke<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}
