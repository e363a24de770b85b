/** A payment-run service on the real withdrawal service, the real client and the real sandbox over loopback. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createRunService, NO_PAYEES, type RunService } from '../../../src/main/runs'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'

export const TAX_NUMBER = '52998224725'
/** The sandbox only takes Liquid mainnet refund addresses. */
export const REFUND_ADDRESS = generateLiquidAddress('liquid', { confidential: false }).address

export const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo'

/** `n` good pt-BR CSV lines (distinct keys), payouts R$ 10,00 + i. */
export function runCsv(n: number, extra: string[] = []): Uint8Array {
  const lines = [HEADER]
  for (let i = 0; i < n; i++) {
    lines.push(
      `Fornecedor ${i};f${i}@example.com;${TAX_NUMBER};${10 + i},00;${i % 2 ? 'Serviços' : 'Materiais'};Obras`,
    )
  }
  return new TextEncoder().encode([...lines, ...extra].join('\r\n'))
}

export interface RunRig {
  sb: Sandbox
  file: string
  ledger: Ledger
  client: DepixClient
  withdrawals: WithdrawalService
  runs: RunService
  posts(): number
  close(): Promise<void>
}

export function tempLedgerFile(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runs-it-'))
  return { dir, file: path.join(dir, 'ledger.sqlite') }
}

export async function runRig(
  o: {
    sb?: Sandbox
    file?: string
    withdrawPerMinute?: number
    fundingMarginMs?: number
    /** the profile pays its waves from its treasury wallet (the planner counts signing and re-checking) */
    walletPays?: boolean
  } = {},
): Promise<RunRig> {
  const limit = o.withdrawPerMinute ?? 600
  const sb = o.sb ?? (await startSandbox({ rateLimits: { withdraw: limit } }))
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
    rateLimits: { withdraw: limit },
    timeoutMs: 3_000,
  })
  await client.signIn()
  const withdrawals = createWithdrawalService({
    ledger,
    client,
    operator: 'ana',
    network: 'liquid',
    profile: 'sandbox',
  })
  const runs = createRunService({
    ledger,
    operator: 'ana',
    payees: NO_PAYEES,
    ...(o.fundingMarginMs === undefined ? {} : { fundingMarginMs: o.fundingMarginMs }),
    ...(o.walletPays ? { walletPays: () => true } : {}),
    runtime: () => ({
      profile: {
        id: 'sandbox',
        network: 'liquid',
        partnerRateBps: 100,
        defaultRefundAddress: REFUND_ADDRESS,
      },
      client,
      withdrawals,
    }),
  })
  return {
    sb,
    file,
    ledger,
    client,
    withdrawals,
    runs,
    posts: () => sb.control.requestCounts()['POST /api/withdraw'] ?? 0,
    close: async () => {
      await runs.close()
      await withdrawals.tracker.stop()
      await client.close()
      ledger.close()
      if (!o.sb) await sb.close()
      if (tmp) fs.rmSync(tmp.dir, { recursive: true, force: true })
    },
  }
}
