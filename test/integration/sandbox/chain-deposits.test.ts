/**
 * Issue #27: the sandbox DePix service watches its deposit addresses on its own Liquid chain. The Sandbox treasury
 * wallet (LWK, the documented sandbox mnemonic) pays a withdrawal's deposit address in a real blinded transaction;
 * once a block confirms it, the service unblinds the output and the withdrawal is funded with that txid. The ±5%
 * tolerance applies to the unblinded amount; a payment of another asset, or outside the tolerance, does not fund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { SANDBOX_DEPIX, SANDBOX_LBTC, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { twinAddress } from '../../../src/main/sandbox/chain/keys'
import { WatchedWallet } from '../../../src/main/wallet/watch'
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

describe("the service's own payouts on the sandbox chain", () => {
  const treasuryWallet = () =>
    new WatchedWallet({
      descriptor: sandboxTreasury().descriptor,
      network: 'regtest',
      stateFile: null,
      now: Date.now,
    })

  it('a top-up is delivered in a real transaction to the requested address: the treasury sees it, same txid', async () => {
    const wallet = treasuryWallet()
    const to = twinAddress(wallet.address(5).address, 'liquid') // the treasury's address in the profile's form
    const r = await call(sb.baseUrl, 'POST', '/api/deposit', {
      token,
      body: { amountInCents: 12_345, depixAddress: to, endUserTaxNumber: CPFS[0] },
    })
    expect(r.status).toBe(200)
    const id = r.body.response.id as string
    sb.control.payDeposit(id)
    sb.control.advanceClock(11) // depositSendSeconds
    const s = (await call(sb.baseUrl, 'GET', `/api/deposit-status?id=${id}`, { token })).body.response
    expect(s.status).toBe('depix_sent')
    expect(sb.liquid.chain.tx(s.blockchainTxID)).toBeDefined()
    sb.liquid.chain.mine()
    const seen = await wallet.scan(sb.esploraUrl)
    const m = seen.movements.find((x) => x.txid === s.blockchainTxID)
    expect(m?.net.get(SANDBOX_DEPIX)).toBe(12_345n * UNITS_PER_CENT)
  })

  it('a funding outside the tolerance is refunded on-chain to the refund address: the treasury sees the refund', async () => {
    const wallet = treasuryWallet()
    const refundAddress = twinAddress(wallet.address(6).address, 'liquid')
    const r = await call(sb.baseUrl, 'POST', '/api/withdraw', {
      token,
      body: { pixKey: 'devolve@example.com', taxNumber: CPFS[3], payoutAmountInCents: 10_000, refundAddress },
    })
    expect(r.status).toBe(200)
    const w = r.body.response
    const paidCents = Math.round(w.depositAmountInCents * 1.2)
    await pay(w.depositAddress, BigInt(paidCents) * UNITS_PER_CENT)
    sb.liquid.chain.mine() // the service sees the funding, refunds it
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('refunded')
    const refundTx = s.refund.txId as string
    expect(sb.liquid.chain.tx(refundTx)).toBeDefined()
    sb.liquid.chain.mine()
    const seen = await wallet.scan(sb.esploraUrl)
    expect(seen.movements.find((x) => x.txid === refundTx)?.net.get(SANDBOX_DEPIX)).toBe(
      BigInt(s.refund.amountInCents) * UNITS_PER_CENT,
    )
  })
})
