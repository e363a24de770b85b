/** The renderer's only way to main: typed calls and events over `window.treasury`. */
import { useEffect, useRef } from 'react'
import type {
  ChannelInput,
  ChannelName,
  ChannelOutput,
  EventName,
  EventPayload,
  IpcResult,
} from '../../shared/contract'

export async function call<C extends ChannelName>(
  channel: C,
  ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
): Promise<IpcResult<ChannelOutput<C>>> {
  try {
    return await window.treasury.invoke(channel, ...input)
  } catch {
    // The bridge itself failed (main gone, serialisation): nothing more specific can be said here.
    return { ok: false, error: { code: 'ipc_failed', message: 'The app could not reach its main process.' } }
  }
}

/** Subscribes to a main → renderer event for the lifetime of the component. */
export function useEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const ref = useRef(listener)
  useEffect(() => {
    ref.current = listener
  })
  useEffect(() => window.treasury.on(event, (p) => ref.current(p)), [event])
}
