/** Electron IPC channel names shared by main and preload (the preload may not import zod: it is sandboxed). */
export const INVOKE_CHANNEL = 'treasury:invoke'
export const EVENT_CHANNEL = 'treasury:event'
