/** The sandbox chain's Esplora surface over real loopback HTTP: answers, refusals, reorgs. */
import { Transaction } from 'liquidjs-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newKeyedAddress } from '../../../../src/main/sandbox/chain/keys'
import { SANDBOX_DEPIX, startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const get = async (path: string) => {
  const r = await fetch(h.esplora.url + path)
  return { status: r.status, text: await r.text() }
}
const post = async (hex: string) => {
  const r = await fetch(h.esplora.url + '/tx', { method: 'POST', body: hex })
  return { status: r.status, text: await r.text() }
}

describe('Esplora subset', () => {
  it('tip, heights, headers and a transaction with its status, raw and hex', async () => {
    const to = newKeyedAddress()
    const txid = h.faucet.send([{ address: to.address, asset: SANDBOX_DEPIX, units: 100n }])
    expect(await get(`/tx/${txid}/status`)).toEqual({ status: 200, text: '{"confirmed":false}' })
    const [block] = h.chain.mine()
    expect(await get('/blocks/tip/hash')).toEqual({ status: 200, text: block?.hash })
    expect(await get('/blocks/tip/height')).toEqual({ status: 200, text: String(h.chain.height) })
    expect(await get(`/block-height/${h.chain.height}`)).toEqual({ status: 200, text: block?.hash })
    expect((await get('/block-height/99999')).status).toBe(404)
    const header = await get(`/block/${block?.hash}/header`)
    expect(header.text).toMatch(/^00000020[0-9a-f]{128}[0-9a-f]{16}0151 ?00$/)
    expect(JSON.parse((await get(`/tx/${txid}/status`)).text)).toEqual({
      confirmed: true,
      block_height: h.chain.height,
      block_hash: block?.hash,
      block_time: block?.time,
    })
    const raw = Buffer.from(await (await fetch(`${h.esplora.url}/tx/${txid}/raw`)).arrayBuffer())
    expect(Transaction.fromBuffer(raw).getId()).toBe(txid)
    expect((await get(`/tx/${txid}/hex`)).text).toBe(raw.toString('hex'))
    const history = JSON.parse((await get(`/address/${to.address}/txs`)).text) as { txid: string }[]
    expect(history.map((x) => x.txid)).toEqual([txid])
    expect((await get('/address/not-an-address/txs')).status).toBe(400)
    expect((await get(`/tx/${'0'.repeat(64)}/raw`)).status).toBe(404)
  })

  it('POST /tx: accepts a valid transaction once; refuses garbage, duplicates, unknown inputs, double spends', async () => {
    const txid = h.faucet.send([{ address: newKeyedAddress().address, asset: SANDBOX_DEPIX, units: 1n }])
    const hex = h.chain.tx(txid)?.hex as string
    expect(await post('zz')).toEqual({ status: 400, text: 'sendrawtransaction RPC error: TX decode failed' })
    expect(await post('00')).toEqual({ status: 400, text: 'sendrawtransaction RPC error: malformed' })
    expect(await post(hex)).toEqual({ status: 400, text: 'sendrawtransaction RPC error: duplicate' })
    const tx = Transaction.fromHex(hex)
    // Same inputs, one output changed: another transaction spending what the first spent.
    const twin = tx.clone()
    twin.outs[0]!.script = Buffer.from('0014' + '11'.repeat(20), 'hex')
    expect(await post(twin.toHex())).toEqual({
      status: 400,
      text: 'sendrawtransaction RPC error: double_spend',
    })
    const orphan = tx.clone()
    orphan.ins[0]!.hash = Buffer.alloc(32, 7)
    expect(await post(orphan.toHex())).toEqual({
      status: 400,
      text: 'sendrawtransaction RPC error: missing_input',
    })
    expect(h.chain.mempoolSize).toBe(1)
  })

  it('a reorg replaces the tip: new hash at the same height, the transaction back to unconfirmed', async () => {
    const txid = h.faucet.send([{ address: newKeyedAddress().address, asset: SANDBOX_DEPIX, units: 2n }])
    const [old] = h.chain.mine()
    h.chain.reorg(1)
    expect(h.chain.height).toBe(old?.height)
    expect(h.chain.tip.hash).not.toBe(old?.hash)
    expect((await get(`/block/${old?.hash}/header`)).status).toBe(404)
    expect(JSON.parse((await get(`/tx/${txid}/status`)).text)).toEqual({ confirmed: false })
    h.chain.mine()
    expect(JSON.parse((await get(`/tx/${txid}/status`)).text).block_height).toBe(h.chain.height)
  })
})
