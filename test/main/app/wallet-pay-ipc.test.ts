/**
 * Issue #28 through the real router of a real app context (embedded sandbox, Sandbox profile): the channels answer
 * with codes and pt-BR/en sentences, and a payment whose deposit address is not on the wallet's chain is refused
 * by name. (The Sandbox service's withdrawals still give mainnet-format deposit addresses while its treasury is
 * on the regtest chain: docs/WALLET.md, "Paying from the wallet".)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult } from '../../../src/shared/contract'

let dataDir: string
let ctx: AppContext

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-pay-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    walletScanSpacingMs: 0,
    ports: {
      chooseDirectory: () => Promise.resolve(null),
      chooseFile: () => Promise.resolve(null),
      openExternal: () => Promise.resolve(),
    },
  })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}

describe('walletPay channels on the Sandbox profile', () => {
  it('list is empty; unknown attempts and bad input are refused with codes and sentences', async () => {
    expect(await call('walletPay:list', {})).toEqual({ ok: true, data: [] })
    const r = await call('walletPay:export', { id: 'nope' })
    expect(r).toMatchObject({ ok: false, error: { code: 'pay_illegal_state' } })
    if (r.ok) throw new Error('unreachable')
    expect(r.error.userMessage?.['pt-BR']).toBe('Esta ação não é possível na etapa atual da transação.')
    expect(await call('walletPay:build', { selected: [] })).toMatchObject({ ok: false })
  })

  it('a sandbox withdrawal with a mainnet deposit address: refused by name, nothing kept', async () => {
    await call('session:signIn')
    const refund = generateLiquidAddress('liquid').address
    const draft = {
      pixKey: 'fulano@example.com',
      taxNumber: '529.982.247-25',
      amount: { kind: 'payout', cents: 5_000 },
      refundAddress: refund,
    }
    const quote = await call<{ intent: { id: string } }>('withdrawals:quote', { draft })
    if (!quote.ok) throw new Error(JSON.stringify(quote))
    const created = await call<{ localId: string }>('withdrawals:create', {
      draft,
      intentId: quote.data.intent.id,
    })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const r = await call('walletPay:build', { selected: [{ localId: created.data.localId }] })
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'pay_not_payable',
        reason: 'deposit_address_other_network',
        localIds: [created.data.localId],
      },
    })
    expect(await call('walletPay:list', {})).toEqual({ ok: true, data: [] })
  })
})
