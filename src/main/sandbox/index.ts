/**
 * The embedded sandbox: a faithful simulator of the DePix API over loopback HTTP (DESIGN §6,
 * docs/SANDBOX.md). Electron-free; used by the app's default "Sandbox" profile, by the integration tests and
 * by `npm run sandbox`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createControl } from './control'
import { createRequestHandler } from './server'
import { SandboxCore } from './state'
import type { Sandbox, SandboxOptions } from './types'

export type {
  DepositView,
  Fault,
  FaultTarget,
  PayoutOutcome,
  RuntimeOptions,
  Sandbox,
  SandboxControl,
  SandboxCredential,
  SandboxOptions,
  SandboxStateSnapshot,
  SandboxSummary,
  WithdrawalRefund,
  WithdrawalView,
} from './types'
export { DEFAULT_END_USER } from './end-users'
export { SANDBOX_PARTNER_ID, DEFAULT_RUNTIME_OPTIONS } from './state'
export { ControlError as SandboxControlError } from './errors'

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const core = new SandboxCore(opts)
  const control = createControl(core)
  const credentials = core.auth.createCredential({ label: 'sandbox-default', scopes: ['all'] })
  const server: Server = createServer({ keepAliveTimeout: 5_000 }, createRequestHandler(core, control))
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  let closing: Promise<void> | undefined
  return {
    baseUrl,
    controlUrl: `${baseUrl}/_sandbox`,
    credentials,
    control,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Keep-alive sockets would hold close() open until their timeout.
        server.closeAllConnections()
      })
      return closing
    },
  }
}
