import { describe, expect, it } from 'vitest'
import {
  formatAmount,
  formatDateTime,
  formatDay,
  parseAmount,
  saoPauloDay,
} from '../../../src/main/records/format'

describe('dates', () => {
  it('pt-BR: São Paulo time, dd/mm/aaaa hh:mm:ss', () => {
    expect(formatDateTime('2025-03-01T12:00:00.000Z', 'pt-BR')).toBe('01/03/2025 09:00:00')
    // Crosses midnight backwards into the previous day (and month, and year).
    expect(formatDateTime('2025-01-01T02:59:59.999Z', 'pt-BR')).toBe('31/12/2024 23:59:59')
    expect(formatDateTime('2024-03-01T01:00:00.000Z', 'pt-BR')).toBe('29/02/2024 22:00:00')
  })

  it('pt-BR before 1914: local mean time to the second (−3:06:28), not rounded to a minute', () => {
    expect(formatDateTime('1900-01-01T12:00:00.000Z', 'pt-BR')).toBe('01/01/1900 08:53:32')
  })

  it('pt-BR follows the historical offsets (DST until 2019: UTC−2 in summer)', () => {
    expect(formatDateTime('2018-01-15T12:00:00.000Z', 'pt-BR')).toBe('15/01/2018 10:00:00')
    expect(formatDateTime('2018-07-15T12:00:00.000Z', 'pt-BR')).toBe('15/07/2018 09:00:00')
  })

  it('agrees with Intl for many instants (the fast path and the cached offsets)', () => {
    const intl = new Intl.DateTimeFormat('pt-BR', {
      timeZone: 'America/Sao_Paulo',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    for (let t = Date.parse('2017-10-01T00:00:00Z'); t < Date.parse('2019-03-01T00:00:00Z'); t += 7_777_777) {
      const iso = new Date(t).toISOString()
      expect(formatDateTime(iso, 'pt-BR')).toBe(intl.format(t).replace(',', ''))
    }
  })

  it('en: ISO 8601 UTC; other offsets normalised; unparseable text kept as received', () => {
    expect(formatDateTime('2025-03-01T12:00:00.000Z', 'en')).toBe('2025-03-01T12:00:00.000Z')
    expect(formatDateTime('2025-03-01T09:00:00-03:00', 'en')).toBe('2025-03-01T12:00:00.000Z')
    expect(formatDateTime('amanhã', 'pt-BR')).toBe('amanhã')
    expect(formatDateTime('2025-02-30T00:00:00.000Z', 'pt-BR')).toBe('2025-02-30T00:00:00.000Z')
    expect(formatDateTime(null, 'pt-BR')).toBe('')
  })

  it('days are São Paulo calendar days', () => {
    expect(saoPauloDay('2025-03-02T02:00:00.000Z')).toBe('2025-03-01')
    expect(saoPauloDay('2025-03-02T03:00:00.000Z')).toBe('2025-03-02')
    expect(formatDay('2025-03-01', 'pt-BR')).toBe('01/03/2025')
    expect(formatDay('2025-03-01', 'en')).toBe('2025-03-01')
  })
})

describe('amounts', () => {
  it('pt-BR 1.234,56 and en 1234.56, no symbol; parse inverts', () => {
    const cases: Array<[number, string, string]> = [
      [0, '0,00', '0.00'],
      [5, '0,05', '0.05'],
      [123456, '1.234,56', '1234.56'],
      [60000000, '600.000,00', '600000.00'],
    ]
    for (const [cents, pt, en] of cases) {
      expect(formatAmount(cents, 'pt-BR')).toBe(pt)
      expect(formatAmount(cents, 'en')).toBe(en)
      expect(parseAmount(pt, 'pt-BR')).toBe(cents)
      expect(parseAmount(en, 'en')).toBe(cents)
    }
    expect(formatAmount(null, 'pt-BR')).toBe('')
    expect(parseAmount('', 'en')).toBeNull()
    expect(parseAmount('1,234.56', 'en')).toBeUndefined()
    expect(parseAmount('1234,56', 'pt-BR')).toBeUndefined()
    expect(parseAmount("'=1", 'pt-BR')).toBeUndefined()
  })
})
