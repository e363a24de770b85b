/**
 * The deposit's QR as the detail page gets it: read from the service's Pix BR Code, drawn only when its CRC holds
 * and its amount (field 54) is the deposit's. A damaged or foreign payload is never drawn as something to pay.
 */
import { describe, expect, it } from 'vitest'
import { readBrCode } from '../../../src/main/deposits/brcode'
import { depositQr } from '../../../src/main/deposits/qr'
import { brCode } from '../../../src/main/sandbox/pix-qr'
import type { DepositRecord } from '../../../src/shared/deposit-record'

function record(over: Partial<DepositRecord>): DepositRecord {
  return {
    localId: 'dep-1',
    profile: 'sandbox',
    operator: 'ana',
    createdAt: '2025-06-01T12:00:00.000Z',
    updatedAt: '2025-06-01T12:00:00.000Z',
    localState: 'created',
    origin: 'app',
    request: { amountInCents: 50_000 },
    amountCents: 50_000,
    depixAddress: 'lq1x',
    createResponse: null,
    remoteId: 'qr-1',
    remoteStatus: 'pending',
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    qrCopyPaste: null,
    expiration: null,
    valueCents: null,
    bankTxId: null,
    blockchainTxId: null,
    payerName: null,
    reversedAt: null,
    error: null,
    requestId: null,
    flags: [],
    ...over,
  }
}

describe('readBrCode', () => {
  it('reads the amount and checks the CRC of a Pix BR Code', () => {
    expect(readBrCode(brCode('qr-1', 50_000))).toEqual(
      expect.objectContaining({ crcValid: true, amountCents: 50_000 }),
    )
    expect(readBrCode(brCode('qr-1', 7))).toEqual(expect.objectContaining({ crcValid: true, amountCents: 7 }))
  })

  it('a changed character (amount edited in transit) breaks the CRC', () => {
    const good = brCode('qr-1', 50_000)
    const edited = good.replace('500.00', '900.00')
    expect(edited).not.toBe(good)
    expect(readBrCode(edited)?.crcValid).toBe(false)
  })

  it('text that is not a BR Code is not one, whatever it holds', () => {
    for (const s of ['', 'hello', '6304', '00020101', 'x'.repeat(10_000), '\u202e0002']) {
      const r = readBrCode(s)
      expect(r === null || r.crcValid === false).toBe(true)
    }
  })
})

describe('depositQr', () => {
  it('no payload: no QR', async () => {
    expect(await depositQr(record({}))).toBeNull()
  })

  it('a valid payload for the deposit amount is drawn', async () => {
    const qr = await depositQr(record({ qrCopyPaste: brCode('qr-1', 50_000) }))
    expect(qr).toEqual(expect.objectContaining({ crcValid: true, amountMatches: true, amountCents: 50_000 }))
    expect(qr?.svg).toMatch(/^<svg|<\?xml/)
  })

  it('a payload for another amount, or damaged, is shown as text only', async () => {
    const other = await depositQr(record({ qrCopyPaste: brCode('qr-1', 90_000) }))
    expect(other).toEqual(expect.objectContaining({ crcValid: true, amountMatches: false, svg: null }))
    const damaged = await depositQr(record({ qrCopyPaste: brCode('qr-1', 50_000).slice(0, -1) + '0' }))
    expect(damaged?.svg).toBeNull()
    expect(damaged?.crcValid).toBe(false)
  })

  it('the amount the service reports wins over the one asked for', async () => {
    const qr = await depositQr(record({ valueCents: 49_000, qrCopyPaste: brCode('qr-1', 49_000) }))
    expect(qr?.amountMatches).toBe(true)
  })
})
