import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { centsToDecimal, DEPIX_ASSET_ID, fundingQrSvg, fundingUri } from '../../../src/main/liquid'

const LQ =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'
const EX = 'ex1q7gkeyjut0mrxc3j0kjlt7rmcnvsh0gt45d3fud'
const TLQ =
  'tlq1qqgft7r4ytdenml0gaj67393sd3qkt3nxex0ut5dt3plhzwf6jaww4jul7lnkeat2teawq3s0cky6yxf0pnu2gq8g2kuxfj8ft'
const EL =
  'el1qqgft7r4ytdenml0gaj67393sd3qkt3nxex0ut5dt3plhzwf6jaww4jul7lnkeat2teawq3s0cky6yxf0pnu2gmz9ej9kyq5yc'
const TEST_ASSET = '144c654344aa716d6f3abcc1ca90e5641e4e2a7f633bc09fe3baf64585819a49'

describe('centsToDecimal (always two decimals, string math)', () => {
  it.each([
    [1, '0.01'],
    [5, '0.05'],
    [99, '0.99'],
    [100, '1.00'],
    [200, '2.00'],
    [1234, '12.34'],
    [600_000_00, '600000.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%i cents -> %s', (cents, expected) => {
    expect(centsToDecimal(cents)).toBe(expected)
  })

  it('round-trips every positive safe integer exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const s = centsToDecimal(cents)
        return /^\d+\.\d{2}$/.test(s) && BigInt(s.replace('.', '')) === BigInt(cents) && !/^0\d/.test(s)
      }),
    )
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'rejects %s with RangeError',
    (cents) => {
      expect(() => centsToDecimal(cents)).toThrow(RangeError)
    },
  )
})

describe('fundingUri', () => {
  it('builds the exact liquidnetwork: URI with the DePix asset id', () => {
    expect(fundingUri({ address: LQ, cents: 1234, network: 'liquid' })).toBe(
      `liquidnetwork:${LQ}?amount=12.34&assetid=02f22f8d9c76ab41661a2729e4752e2c5d1a263012141b86ea98af5472df5189`,
    )
    expect(fundingUri({ address: EX, cents: 200, network: 'liquid' })).toBe(
      `liquidnetwork:${EX}?amount=2.00&assetid=${DEPIX_ASSET_ID}`,
    )
  })

  it('uses liquidtestnet: for testnet and regtest, with an overridable asset id', () => {
    expect(fundingUri({ address: TLQ, cents: 5, network: 'testnet', assetId: TEST_ASSET })).toBe(
      `liquidtestnet:${TLQ}?amount=0.05&assetid=${TEST_ASSET}`,
    )
    expect(fundingUri({ address: EL, cents: 600_000_00, network: 'regtest', assetId: TEST_ASSET })).toBe(
      `liquidtestnet:${EL}?amount=600000.00&assetid=${TEST_ASSET}`,
    )
  })

  it('writes the normalised address', () => {
    expect(fundingUri({ address: ` ${LQ.toUpperCase()} `, cents: 100, network: 'liquid' })).toBe(
      `liquidnetwork:${LQ}?amount=1.00&assetid=${DEPIX_ASSET_ID}`,
    )
  })

  it('rejects non-positive or non-safe-integer cents with RangeError', () => {
    for (const cents of [0, -100, 12.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => fundingUri({ address: LQ, cents, network: 'liquid' })).toThrow(RangeError)
    }
  })

  it('refuses an invalid or wrong-network address, and a malformed asset id', () => {
    expect(() => fundingUri({ address: `${LQ.slice(0, -1)}6`, cents: 100, network: 'liquid' })).toThrow(
      TypeError,
    )
    expect(() => fundingUri({ address: TLQ, cents: 100, network: 'liquid' })).toThrow(/wrong_network/)
    expect(() => fundingUri({ address: '', cents: 100, network: 'liquid' })).toThrow(TypeError)
    expect(() => fundingUri({ address: LQ, cents: 100, network: 'liquid', assetId: 'abc' })).toThrow(
      TypeError,
    )
  })
})

describe('fundingQrSvg', () => {
  const uri = fundingUri({ address: LQ, cents: 1234, network: 'liquid' })

  it('renders an SVG', async () => {
    const svg = await fundingQrSvg(uri)
    expect(svg.trimStart().startsWith('<svg')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expect(svg).toContain('viewBox')
  })

  it('is deterministic for the same input and differs for another', async () => {
    const [a, b] = await Promise.all([fundingQrSvg(uri), fundingQrSvg(uri)])
    expect(a).toBe(b)
    const other = await fundingQrSvg(fundingUri({ address: LQ, cents: 1235, network: 'liquid' }))
    expect(other).not.toBe(a)
  })

  it('rejects an empty uri', async () => {
    await expect(fundingQrSvg('')).rejects.toThrow(TypeError)
  })
})
