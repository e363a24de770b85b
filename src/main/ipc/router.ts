/**
 * Electron-free binding of the shared contract to handlers. `ipcMain.handle` in the shell and the E2E bridge
 * in tests both call `router.handle`, so the same validation runs in both.
 */
import { type z } from 'zod'
import {
  channels,
  isChannelName,
  type ChannelName,
  type ChannelOutput,
  type IpcError,
  type IpcResult,
  type Channels,
  ipcErrorSchema,
} from '../../shared/contract'

export type Handler<C extends ChannelName> = (
  input: z.output<Channels[C]['input']>,
) => Promise<ChannelOutput<C>> | ChannelOutput<C>

export type Handlers = { [C in ChannelName]: Handler<C> }

/** The handlers of one feature's channels (`HandlersOf<typeof withdrawalsChannels>`): exactly those, no other. */
export type HandlersOf<Spec> = Pick<Handlers, keyof Spec & ChannelName>

/** Errors a handler may throw on purpose; anything else becomes `internal` with no detail leaked. */
export class HandlerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extra: Omit<IpcError, 'code' | 'message'> = {},
  ) {
    super(message)
    this.name = 'HandlerError'
  }
}

export interface Router {
  handle(channel: unknown, rawInput: unknown): Promise<IpcResult<unknown>>
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '(input)'
    out[key] ??= issue.message
  }
  return out
}

export interface RouterOptions {
  /** Turns a service's own error into a result error; null means unexpected (→ `internal`, logged). */
  mapError?: (e: unknown) => IpcError | null
  onUnexpected?: (channel: string, e: unknown) => void
}

/** Handlers may be partial (tests); the app passes a complete `Handlers`, so the compiler checks coverage. */
export function createRouter(handlers: Partial<Handlers>, opts: RouterOptions = {}): Router {
  return {
    async handle(channel, rawInput) {
      if (!isChannelName(channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: 'Unknown channel' } }
      }
      const spec = channels[channel]
      const parsed = spec.input.safeParse(rawInput)
      if (!parsed.success) {
        return {
          ok: false,
          error: { code: 'invalid_input', message: 'Invalid input', fields: fieldErrors(parsed.error) },
        }
      }
      try {
        const handler = handlers[channel] as ((input: unknown) => unknown) | undefined
        if (!handler) return { ok: false, error: { code: 'unknown_channel', message: 'Unknown channel' } }
        const data: unknown = await handler(parsed.data)
        // Output is checked too: a handler must never leak fields the contract does not name.
        const out = spec.output.safeParse(data)
        if (!out.success) {
          opts.onUnexpected?.(channel, out.error)
          return { ok: false, error: { code: 'internal', message: 'Internal error' } }
        }
        return { ok: true, data: out.data }
      } catch (e) {
        if (e instanceof HandlerError) {
          return { ok: false, error: { ...e.extra, code: e.code, message: e.message } }
        }
        const mapped = opts.mapError?.(e) ?? null
        if (mapped) return { ok: false, error: ipcErrorSchema.parse(mapped) }
        opts.onUnexpected?.(channel, e)
        return { ok: false, error: { code: 'internal', message: 'Internal error' } }
      }
    },
  }
}
