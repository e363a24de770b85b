/** The deposit service against the real sandbox over loopback, with a file ledger. */
import fs from 'node:fs'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import {
  createDepositService,
  type DepositService,
  type DepositServiceDeps,
} from '../../../src/main/deposits'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/main/sandbox'
import type { EndpointName } from '../../../src/shared/api-limits'
import type { DepositDraft } from '../../../src/shared/deposit-draft'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import { tempLedgerFile, waitFor } from '../withdrawals/helpers'

export { tempLedgerFile, waitFor }

/** The sandbox's default end user (valid CPF). */
export const PAYER_CPF = '52998224725'
/** The treasury's own Liquid address (the sandbox is on mainnet). */
export const TREASURY_ADDRESS = generateLiquidAddress('liquid', { confidential: true }).address

export function depositDraft(over: Partial<DepositDraft> = {}): DepositDraft {
  return { amountCents: 50_000, depixAddress: TREASURY_ADDRESS, endUserTaxNumber: PAYER_CPF, ...over }
}

export interface DepositRig {
  sb: Sandbox
  ledger: Ledger
  file: string
  client: DepixClient
  service: DepositService
  posts(): number
  statusGets(): number
  close(): Promise<void>
}

export async function depositRig(
  o: {
    sandbox?: SandboxOptions
    service?: Partial<DepositServiceDeps>
    sb?: Sandbox
    file?: string
    /** The client's per-endpoint limits (defaults: docs/API-CONTRACT.md#s8-1). */
    rateLimits?: Partial<Record<EndpointName, number>>
  } = {},
): Promise<DepositRig> {
  const sb = o.sb ?? (await startSandbox(o.sandbox))
  const tmp = o.file ? null : tempLedgerFile()
  const file = o.file ?? (tmp as { file: string }).file
  const ledger = openLedger(file)
  const client = createDepixClient({
    baseUrl: sb.baseUrl,
    auth: {
      kind: 'client_credentials',
      clientId: sb.credentials.clientId,
      clientSecret: sb.credentials.clientSecret,
    },
    timeoutMs: 3_000,
    ...(o.rateLimits ? { rateLimits: o.rateLimits } : {}),
  })
  await client.signIn()
  const service = createDepositService({
    ledger,
    client,
    operator: 'ana',
    network: 'liquid',
    profile: 'sandbox',
    ...o.service,
  })
  const count = (k: string) => sb.control.requestCounts()[k] ?? 0
  return {
    sb,
    ledger,
    file,
    client,
    service,
    posts: () => count('POST /api/deposit'),
    statusGets: () => count('GET /api/deposit-status'),
    close: async () => {
      await service.stop()
      await client.close()
      ledger.close()
      if (!o.sb) await sb.close()
      if (tmp) fs.rmSync(tmp.dir, { recursive: true, force: true })
    },
  }
}

/** Quote, then create with its intent (what the review step does). */
export async function reviewedDeposit(
  service: Pick<DepositService, 'quote' | 'create'>,
  draft: DepositDraft,
  o: { confirm?: boolean } = {},
): Promise<DepositRecord> {
  const q = await service.quote(draft)
  return service.create(draft, {
    intentId: q.intent.id,
    confirmedDuplicates: o.confirm ? q.duplicates.map((d) => d.localId) : [],
  })
}
