/**
 * A desk for paying-from-the-wallet tests, the same in-process and in a crash child: a real SQLite ledger, the real
 * withdrawal service whose `GET /withdraw-status` is answered from a JSON file (the service's answers: regtest
 * deposit addresses whose blinding keys the sandbox book holds), the watched wallet over the sandbox chain's
 * Esplora (loopback), and the PayService with its attempts file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ENDPOINTS, type EndpointName } from '../../../../src/shared/api-limits'
import type { Allowance, DepixClient } from '../../../../src/main/api'
import { openLedger, type Ledger } from '../../../../src/main/ledger/sqlite'
import { SANDBOX_DEPIX, SANDBOX_LBTC } from '../../../../src/main/sandbox/chain/faucet'
import { PayAttempts } from '../../../../src/main/wallet/pay/attempts'
import { PayService, type PayDeps, type PayStep } from '../../../../src/main/wallet/pay/service'
import type { FundingGuard } from '../../../../src/main/wallet/pay/team-guard'
import { WatchedWallet } from '../../../../src/main/wallet/watch'
import { createWithdrawalService } from '../../../../src/main/withdrawals'
import type { WithdrawalService } from '../../../../src/main/withdrawals/types'

export const ASSETS = { depix: SANDBOX_DEPIX, lbtc: SANDBOX_LBTC }

/** What the service answers per remote id. */
export type Answers = Record<string, Record<string, unknown>>

export interface DeskOptions {
  readonly dir: string
  readonly esploraUrl: string
  readonly descriptor: string
  readonly now: () => number
  readonly sandboxMnemonic?: string
  readonly step?: (s: PayStep, attemptId: string) => void
  /** a team profile's database guard */
  readonly guard?: FundingGuard
  /** the PSET builder's worker module, as the app passes it */
  readonly buildWorker?: string
  readonly progress?: PayDeps['progress']
}

export interface Desk {
  readonly ledger: Ledger
  readonly withdrawals: WithdrawalService
  readonly wallet: WatchedWallet
  readonly pay: PayService
  readonly attempts: PayAttempts
  statusCalls: string[]
  close(): void
}

export const answersFile = (dir: string): string => join(dir, 'answers.json')
export function writeAnswers(dir: string, a: Answers): void {
  writeFileSync(answersFile(dir), JSON.stringify(a))
}

function statusClient(dir: string, calls: string[]): DepixClient {
  const client = {
    withdrawStatus: async (id: string) => {
      calls.push(id)
      const all = JSON.parse(readFileSync(answersFile(dir), 'utf8')) as Answers
      return { data: all[id] ?? { id, status: 'unsent' }, requestId: 'req-ok', nonce: 'n', status: 200 }
    },
    allowance: () => {
      const out = {} as Record<EndpointName, Allowance>
      for (const e of ENDPOINTS) out[e] = { limitPerMinute: 600, available: 600, nextTokenInMs: 0, queued: 0 }
      return out
    },
    session: () => ({ kind: 'client_credentials' }),
    onSessionChange: () => () => undefined,
    spentBefore: () => undefined,
  }
  return client as unknown as DepixClient
}

export function openDesk(o: DeskOptions): Desk {
  const ledger = openLedger(join(o.dir, 'ledger.sqlite'), { now: o.now })
  const statusCalls: string[] = []
  const withdrawals = createWithdrawalService({
    ledger,
    client: statusClient(o.dir, statusCalls),
    operator: 'ana',
    network: 'regtest',
    profile: 'sandbox',
    assetId: SANDBOX_DEPIX,
    now: o.now,
  })
  const wallet = new WatchedWallet({
    descriptor: o.descriptor,
    network: 'regtest',
    stateFile: null,
    now: o.now,
  })
  const attempts = new PayAttempts(join(o.dir, 'pay-attempts.json'))
  const pay = new PayService({
    profile: 'sandbox',
    network: 'regtest',
    operator: 'ana',
    assets: ASSETS,
    wallet,
    esploraUrl: o.esploraUrl,
    attempts,
    refresh: (id) => withdrawals.refresh(id),
    markFundedMany: (ids, txId) => withdrawals.markFundedMany(ids, { txId }),
    now: o.now,
    ...(o.sandboxMnemonic !== undefined ? { sandboxMnemonic: o.sandboxMnemonic } : {}),
    ...(o.step ? { step: o.step } : {}),
    ...(o.guard ? { guard: o.guard } : {}),
    ...(o.buildWorker !== undefined ? { buildWorker: o.buildWorker } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
  })
  return {
    ledger,
    withdrawals,
    wallet,
    pay,
    attempts,
    statusCalls,
    close() {
      withdrawals.tracker.pause()
      wallet.close()
      ledger.close()
    },
  }
}

let seq = 0
/** A created withdrawal in the ledger (remote id `wd-…`); its deposit facts come from the answers file. */
export function seedPayment(
  ledger: Ledger,
  cents: number,
): { localId: string; remoteId: string; pixKey: string } {
  seq += 1
  const remoteId = `wd-${process.pid}-${seq}`
  const pixKey = `pessoa${seq}@example.com`
  const rec = ledger.insertSubmitting(
    {
      profile: 'sandbox',
      pixKey,
      amountKind: 'deposit',
      amountCents: cents,
      request: { pixKey, taxNumber: '52998224725', depositAmountInCents: cents },
    },
    'ana',
  )
  ledger.markCreated(rec.localId, {
    remoteId,
    createResponse: { withdrawalId: remoteId },
    requestId: `c-${seq}`,
  })
  return { localId: rec.localId, remoteId, pixKey }
}
