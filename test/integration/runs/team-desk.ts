/**
 * A team desk for the run tests of issue #25: the real withdrawal service and run service on a team ledger
 * (PostgreSQL store, run store, side journal in a temp dir) and the real client against the sandbox. Used in the
 * test process and, through fixtures/team-run-child.ts, in a child process that the test kills.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { replayPendingInto } from '../../../src/main/journal/recovery'
import { openPgStore, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { pgRunStore } from '../../../src/main/ledger/pg/run-store'
import { createRunService, NO_PAYEES, type RunService } from '../../../src/main/runs'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'

export interface TeamDesk {
  store: PgLedgerStore
  client: DepixClient
  withdrawals: WithdrawalService
  runs: RunService
  close(): Promise<void>
}

export interface TeamDeskOptions {
  connection: pg.ClientConfig
  baseUrl: string
  clientId: string
  clientSecret: string
  operator: string
  refundAddress: string
  runLeaseMs?: number
  withdrawPerMinute?: number
}

export async function openTeamDesk(o: TeamDeskOptions): Promise<TeamDesk> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `team-desk-${o.operator}-`))
  const sideJournal = path.join(dir, 'team.created.jsonl')
  const store = await openPgStore({ connection: o.connection })
  const limit = o.withdrawPerMinute ?? 600
  const client = createDepixClient({
    baseUrl: o.baseUrl,
    auth: { kind: 'client_credentials', clientId: o.clientId, clientSecret: o.clientSecret },
    rateLimits: { withdraw: limit },
    timeoutMs: 10_000,
  })
  await client.signIn()
  const withdrawals = createWithdrawalService({
    store,
    sideJournal,
    client,
    operator: o.operator,
    network: 'liquid',
    profile: 'team',
  })
  const runs = createRunService({
    records: store,
    runs: pgRunStore(store.pool, store.identity),
    operator: o.operator,
    payees: NO_PAYEES,
    replayRecords: () => replayPendingInto(store, sideJournal, () => undefined),
    ...(o.runLeaseMs === undefined ? {} : { runLeaseMs: o.runLeaseMs }),
    runtime: () => ({
      profile: { id: 'team', network: 'liquid', partnerRateBps: 100, defaultRefundAddress: o.refundAddress },
      client,
      withdrawals,
    }),
  })
  return {
    store,
    client,
    withdrawals,
    runs,
    close: async () => {
      await runs.close()
      await withdrawals.tracker.stop()
      await client.close()
      await store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** An n-row pt-BR run file: keys `<prefix><i>@example.com`, payouts R$ `base`,00 + i. */
export function teamRunCsv(prefix: string, n: number, base = 20): Uint8Array {
  const lines = ['Chave Pix;CPF/CNPJ;Valor do Pix (R$)']
  for (let i = 0; i < n; i++) lines.push(`${prefix}${i}@example.com;52998224725;${base + i},00`)
  return new TextEncoder().encode(lines.join('\n'))
}
