import { describe, expect, it } from 'vitest'
import { formatAssetUnits } from '../../src/shared/money'

describe('formatAssetUnits', () => {
  it('8 decimals, grouped as the locale writes money, sign first', () => {
    expect(formatAssetUnits('1000000', 'L-BTC')).toBe('0,01000000 L-BTC')
    expect(formatAssetUnits('123456789012345', 'L-BTC')).toBe('1.234.567,89012345 L-BTC')
    expect(formatAssetUnits('123456789012345', 'L-BTC', 'en')).toBe('1,234,567.89012345 L-BTC')
    expect(formatAssetUnits('-250', 'L-BTC')).toBe('-0,00000250 L-BTC')
    expect(formatAssetUnits('0', 'DePix')).toBe('0,00000000 DePix')
  })
  it('refuses anything but an integer string', () => {
    for (const bad of ['1.5', '', '1e3', ' 1', '--1'])
      expect(() => formatAssetUnits(bad, 'L-BTC')).toThrow(RangeError)
  })
})
