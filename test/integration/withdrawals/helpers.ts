/** The withdrawal service against the real sandbox over loopback, with a file ledger. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/main/sandbox'
import {
  createWithdrawalService,
  type WithdrawalService,
  type WithdrawalServiceDeps,
} from '../../../src/main/withdrawals'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

/** The sandbox's default end user (valid CPF). */
export const TAX_NUMBER = '52998224725'
/** The sandbox only takes Liquid mainnet refund addresses. */
export const REFUND_ADDRESS = generateLiquidAddress('liquid', { confidential: false }).address

export function draft(over: Partial<WithdrawalDraft> = {}): WithdrawalDraft {
  return {
    pixKey: 'fulano@example.com',
    taxNumber: TAX_NUMBER,
    amount: { kind: 'payout', cents: 1_000 },
    refundAddress: REFUND_ADDRESS,
    ...over,
  }
}

export interface Rig {
  sb: Sandbox
  ledger: Ledger
  file: string
  client: DepixClient
  service: WithdrawalService
  posts(): number
  statusGets(): number
  close(): Promise<void>
}

export function tempLedgerFile(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'withdrawals-it-'))
  return { dir, file: path.join(dir, 'ledger.sqlite') }
}

export async function rig(
  o: { sandbox?: SandboxOptions; service?: Partial<WithdrawalServiceDeps>; sb?: Sandbox; file?: string } = {},
): Promise<Rig> {
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
  })
  await client.signIn()
  const service = createWithdrawalService({
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
    posts: () => count('POST /api/withdraw'),
    statusGets: () => count('GET /api/withdraw-status'),
    close: async () => {
      await service.tracker.stop()
      await client.close()
      ledger.close()
      if (!o.sb) await sb.close()
      if (tmp) fs.rmSync(tmp.dir, { recursive: true, force: true })
    },
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | null,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false && v !== null) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

export function sandboxWithdrawal(sb: Sandbox, id: string | null) {
  return sb.control.state().withdrawals.find((w) => w.id === id)
}

export type { WithdrawalRecord }
