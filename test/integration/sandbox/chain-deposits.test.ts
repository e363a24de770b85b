/**
 * Issue #27: the sandbox DePix service watches its deposit addresses on its own Liquid chain. The Sandbox treasury
 * wallet (LWK, the documented sandbox mnemonic) pays a withdrawal's deposit address in a real blinded transaction;
 * once a block confirms it, the service unblinds the output and the withdrawal is funded with that txid. The ±5%
 * tolerance applies to the unblinded amount; a payment of another asset, or outside the tolerance, does not fund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { SANDBOX_DEPIX, SANDBOX_LBTC } from '../../../src/main/sandbox/chain'
import { payFromSandboxTreasury } from '../../support/sandbox-treasury'
import { call, login, roomySandbox, type Json } from './helpers'

const CPFS = ['52998224725', '11144477735', '39053344705', '87748248800']
let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

async function create(i: number): Promise<Json> {
  const r = await call(sb.baseUrl, 'POST', '/api/withdraw', {
    token,
    body: { pixKey: `maria${i}@example.com`, taxNumber: CPFS[i], payoutAmountInCents: 10_000 },
  })
  if (r.status !== 200) throw new Error(r.text)
  return r.body.response
}
const status = async (id: string): Promise<Json> =>
  (await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${id}`, { token })).body.response

const pay = (depositAddress: string, units: bigint, asset = SANDBOX_DEPIX): Promise<string> =>
  payFromSandboxTreasury(sb, depositAddress, units, asset)
const UNITS_PER_CENT = 1_000_000n

describe('deposits seen on the sandbox chain', () => {
  it('the exact amount, confirmed in a block: funded, with the chain txid', async () => {
    const w = await create(0)
    expect(w.depositAddress).toMatch(/^lq1/)
    const txid = await pay(w.depositAddress, BigInt(w.depositAmountInCents) * UNITS_PER_CENT)
    expect((await status(w.withdrawalId)).status).toBe('unsent') // in the mempool only
    sb.liquid.chain.mine()
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('sending')
    expect(s.blockchainTxID).toBe(txid)
  })

  it('within +5% of the deposit amount (unblinded): funded; at +6%: not funded', async () => {
    const inside = await create(1)
    await pay(inside.depositAddress, (BigInt(inside.depositAmountInCents) * 105n * UNITS_PER_CENT) / 100n)
    const outside = await create(2)
    await pay(outside.depositAddress, (BigInt(outside.depositAmountInCents) * 106n * UNITS_PER_CENT) / 100n)
    sb.liquid.chain.mine()
    expect((await status(inside.withdrawalId)).status).toBe('sending')
    expect((await status(outside.withdrawalId)).status).toBe('unsent')
  })

  it('L-BTC paid to the deposit address does not fund it', async () => {
    const w = await create(3)
    // (The treasury holds 0.01 L-BTC: a little is enough to show another asset is not DePix.)
    await pay(w.depositAddress, 5_000n, SANDBOX_LBTC)
    sb.liquid.chain.mine()
    expect((await status(w.withdrawalId)).status).toBe('unsent')
    // fundWithdrawal (the control) still works without the chain.
    sb.control.fundWithdrawal(w.withdrawalId, w.depositAmountInCents)
    expect((await status(w.withdrawalId)).status).toBe('sending')
  })
})
