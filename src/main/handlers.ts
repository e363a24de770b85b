/** Builds the contract's handlers from the services. Electron-free: the shell and the E2E bridge both use it. */
import type { AppInfo } from '../shared/contract'
import { createRouter, type Handlers, type Router } from './ipc/router'

export interface AppServices {
  info: () => AppInfo
}

export function createHandlers(services: AppServices): Handlers {
  return {
    'app:info': () => services.info(),
  }
}

export function createAppRouter(
  services: AppServices,
  onUnexpected?: (channel: string, e: unknown) => void,
): Router {
  return createRouter(createHandlers(services), onUnexpected ? { onUnexpected } : {})
}
