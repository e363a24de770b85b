/**
 * The bridge. Exposes exactly `window.treasury` with `invoke` and `on`; no ipcRenderer, no generic pass-through.
 * Main validates channel names and inputs; this file stays free of runtime imports because sandboxed preloads
 * can only require `electron`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { TreasuryBridge } from '../shared/contract'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc-names'

const bridge: TreasuryBridge = {
  invoke: (channel, ...input) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, input[0]),
  on: (event, listener) => {
    const wrapped = (_e: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (name === event) (listener as (p: unknown) => void)(payload)
    }
    ipcRenderer.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('treasury', bridge)
