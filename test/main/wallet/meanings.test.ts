import { describe, expect, it } from 'vitest'
import { newKeyedAddress, twinAddress } from '../../../src/main/sandbox/chain/keys'
import { meaningOf, scriptOfAddress } from '../../../src/main/wallet/meanings'

describe('movement meanings', () => {
  const deposit = newKeyedAddress('liquid')
  const t = {
    paymentsByScript: new Map([[deposit.script, 'w-1']]),
    topupsByTxid: new Map([['aa'.repeat(32), 'dep-1']]),
    refundsByTxid: new Map([['bb'.repeat(32), 'w-2']]),
  }

  it('an address and its twin on another network have the same script; junk has none', () => {
    expect(scriptOfAddress(deposit.address)).toBe(deposit.script)
    expect(scriptOfAddress(twinAddress(deposit.address, 'regtest'))).toBe(deposit.script)
    const plain = twinAddress(newKeyedAddress('regtest').address, 'regtest')
    expect(scriptOfAddress(plain)).toMatch(/^0014[0-9a-f]{40}$/)
    expect(scriptOfAddress('not an address')).toBeNull()
  })

  it('refund and top-up by txid first, then a payment by an output to its deposit address, else other', () => {
    expect(meaningOf({ txid: 'bb'.repeat(32), outputScripts: [deposit.script] }, t)).toEqual({
      meaning: 'refund',
      localId: 'w-2',
    })
    expect(meaningOf({ txid: 'aa'.repeat(32), outputScripts: [] }, t)).toEqual({
      meaning: 'topup',
      localId: 'dep-1',
    })
    expect(
      meaningOf({ txid: 'cc'.repeat(32), outputScripts: ['0014' + '00'.repeat(20), deposit.script] }, t),
    ).toEqual({ meaning: 'payment', localId: 'w-1' })
    expect(meaningOf({ txid: 'cc'.repeat(32), outputScripts: ['0014' + '00'.repeat(20)] }, t)).toEqual({
      meaning: 'other',
      localId: null,
    })
  })
})
