/**
 * The embedded sandbox: a faithful simulator of the DePix API over loopback HTTP (see
 * docs/SANDBOX.md). Electron-free; used by the app's default "Sandbox" profile, by the integration tests and
 * by `npm run sandbox`.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ESPLORA_PREFIX, handleEsplora, startLiquid, withFault } from './chain'
import { chainPayout, watchDeposits } from './chain/deposit-watch'
import { createControl } from './control'
import type { ControlAccess } from './control-http'
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

const WILDCARD = new Set(['0.0.0.0', '::'])
const authorityHost = (host: string): string => (host.includes(':') ? `[${host}]` : host)

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const core = new SandboxCore(opts)
  const control = createControl(core)
  const credentials = core.auth.createCredential({ label: 'sandbox-default', scopes: ['all'] })
  const access: ControlAccess = {
    authority: '',
    token: opts.httpControl === false ? '' : randomBytes(32).toString('base64url'),
  }
  const liquid = await startLiquid(() => core.clock.now())
  // The service sees deposits paid on its chain (issue #27); fundWithdrawal still works without the chain.
  const stopWatching = watchDeposits(liquid.chain, liquid.book, core.withdrawals)
  // Top-ups are delivered and refunds paid on that chain, with their real txids.
  core.deposits.chainPayout = chainPayout(liquid.faucet)
  core.withdrawals.chainPayout = chainPayout(liquid.faucet)
  const api = createRequestHandler(core, control, access)
  const server: Server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string
    if (!path.startsWith(`${ESPLORA_PREFIX}/`)) return api(req, res)
    liquid.mineDue()
    withFault(liquid.esploraFault, req, res, () =>
      handleEsplora(liquid.chain, req, res, path.slice(ESPLORA_PREFIX.length)),
    )
  })
  // Blocks follow the sandbox clock; the timer must not keep a test process or the app alive.
  const blocks = setInterval(() => liquid.mineDue(), 1_000)
  blocks.unref()
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const baseUrl = `http://${authorityHost(host)}:${port}`
  core.withdrawals.receiptOrigin = baseUrl
  // A wildcard bind is still driven from loopback: the control surface has one authority, 127.0.0.1.
  access.authority = `${authorityHost(WILDCARD.has(host) ? '127.0.0.1' : host)}:${port}`
  let closing: Promise<void> | undefined
  return {
    baseUrl,
    controlUrl: `http://${access.authority}/_sandbox`,
    controlToken: access.token,
    credentials,
    control,
    liquid,
    esploraUrl: `${baseUrl}${ESPLORA_PREFIX}`,
    close: () => {
      clearInterval(blocks)
      stopWatching()
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Keep-alive sockets would hold close() open until their timeout.
        server.closeAllConnections()
      })
      return closing
    },
  }
}
