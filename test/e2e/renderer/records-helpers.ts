/**
 * Helpers for the list / detail / review specs: real withdrawals through the real router and sandbox, a fast
 * bulk seed of the ledger file, and the axe check every page of this area must pass.
 */
import { randomUUID } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { ChannelInput, ChannelName, ChannelOutput, IpcResult } from '../../../src/shared/contract'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { openDb } from '../../../src/main/ledger/sqlite/db'
import { migrate } from '../../../src/main/ledger/sqlite/migrations'
import { writeRecord } from '../../../src/main/ledger/sqlite/record-write'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { expect, type TestApp } from '../support/app-fixture'

export const REFUND_ADDRESS = generateLiquidAddress('liquid', { confidential: false }).address

/** A channel call straight to main's router (the test plays a second window); throws on failure. */
export async function rpc<C extends ChannelName>(
  app: TestApp,
  channel: C,
  ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
): Promise<ChannelOutput<C>> {
  const r = (await app.ctx.router.handle(channel, input[0])) as IpcResult<ChannelOutput<C>>
  if (!r.ok) throw new Error(`${channel} failed: ${JSON.stringify(r.error)}`)
  return r.data
}

/**
 * A live profile named "Empresa Real" whose API is the test's sandbox (loopback http is allowed for a live
 * profile), signed in with a fresh client credential; not selected.
 */
export async function addLiveProfile(app: TestApp): Promise<ChannelOutput<'profiles:addLive'>> {
  const credential = app.sandbox.control.createCredential({ label: 'live', scopes: ['all'] })
  return rpc(app, 'profiles:addLive', {
    name: 'Empresa Real',
    baseUrl: app.sandbox.baseUrl,
    network: app.ctx.runtime().profile.network,
    auth: {
      kind: 'client_credentials',
      clientId: credential.clientId,
      clientSecret: credential.clientSecret,
    },
  })
}

/** A valid CPF (check digits computed) from nine digits. */
export function cpf(nine: string): string {
  const d = nine.split('').map(Number)
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((a, x, i) => a + x * (len + 1 - i), 0)
    const r = (sum * 10) % 11
    d.push(r === 10 ? 0 : r)
  }
  return d.join('')
}

export async function createWithdrawal(
  app: TestApp,
  o: { pixKey: string; cents: number; kind?: 'payout' | 'deposit'; taxNumber?: string },
): Promise<WithdrawalRecord> {
  const draft = {
    pixKey: o.pixKey,
    taxNumber: o.taxNumber ?? cpf('529982247'),
    amount: { kind: o.kind ?? 'payout', cents: o.cents },
    refundAddress: REFUND_ADDRESS,
  }
  // As the review step does: quote (the one-use intent), confirm every similar record shown, create.
  const q = await rpc(app, 'withdrawals:quote', { draft })
  return rpc(app, 'withdrawals:create', {
    draft,
    intentId: q.intent.id,
    confirmedDuplicates: q.duplicates.map((d) => d.localId),
  })
}

/** Funds the withdrawal with its exact deposit, settles the payout, and lets the app observe it. */
export async function fundAndSettle(
  app: TestApp,
  rec: WithdrawalRecord,
  outcome: 'sent' | 'invalid_pix_key' | 'processor_failure',
): Promise<WithdrawalRecord> {
  if (!rec.remoteId || rec.depositAmountCents === null) throw new Error('not created')
  app.sandbox.control.fundWithdrawal(rec.remoteId, rec.depositAmountCents)
  app.sandbox.control.settlePayout(rec.remoteId, outcome)
  return rpc(app, 'withdrawals:refresh', { localId: rec.localId })
}

const STATUSES = ['sent', 'sent', 'sent', 'expired', 'refunded', 'unsent', 'error', 'em_analise']

/** Writes `n` created records of the sandbox profile straight into a fresh ledger file, in one transaction. */
export function seedLedger(file: string, n: number): void {
  const db = openDb(file)
  migrate(db.raw)
  const start = Date.parse('2025-01-01T03:00:00Z')
  db.tx(() => {
    for (let i = 0; i < n; i++) {
      const createdAt = new Date(start + i * 60_000).toISOString()
      const status = STATUSES[i % STATUSES.length] as string
      const cents = 1000 + ((i * 7919) % 500_000)
      const remoteId = `seed-${String(i).padStart(6, '0')}`
      const pixKey = `pessoa${i}@example.com`
      const refund = status === 'refunded' ? { txId: 'ab'.repeat(32), reason: 'invalid_pix_key' } : null
      // Through the one record write path, so each record has the audit entry of its state (the start-up
      // integrity check would flag it otherwise).
      writeRecord(
        db,
        createdAt,
        null,
        {
          localId: randomUUID(),
          profile: SANDBOX_PROFILE_ID,
          operator: 'seed',
          createdAt,
          updatedAt: createdAt,
          localState: 'created',
          request: { pixKey, payoutAmountInCents: cents, refundAddress: REFUND_ADDRESS },
          pixKey,
          amountKind: 'payout',
          amountCents: cents,
          createResponse: { withdrawalId: remoteId },
          remoteId,
          remoteStatus: status,
          remoteStatusAt: createdAt,
          remoteCheckedAt: createdAt,
          lastRemote: { id: remoteId, status, pixKey, refund },
          depositAddress: null,
          depositAmountCents: cents + 100,
          payoutAmountCents: cents,
          expiration: null,
          fundedAt: null,
          fundingTxId: null,
          refund,
          receiverName: `Pessoa ${i}`,
          error: null,
          requestId: null,
          flags: [],
        },
        { operator: 'seed', action: 'withdrawal.imported' },
      )
    }
  })
  db.close()
}

/** Zero serious or critical axe violations on what the page shows now. */
export async function expectNoSeriousAxe(page: Page): Promise<void> {
  // A stored receipt (issue #14) is a third party's document in an iframe that may run no script: axe cannot be
  // injected into it (it would wait forever), and its markup is not ours to fix.
  const result = await new AxeBuilder({ page }).exclude('iframe[data-testid="receipt-frame"]').analyze()
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    bad.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })),
  ).toEqual([])
}

export async function openNav(page: Page, name: string | RegExp): Promise<void> {
  // Exact: "Pagamentos" is also a word of "Lotes de pagamentos".
  await page.getByRole('navigation').getByRole('button', { name, exact: true }).click()
}

export async function setLanguage(page: Page, lang: 'pt-BR' | 'en'): Promise<void> {
  await page.locator('.lang select').selectOption(lang)
}
