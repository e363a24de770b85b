import { describe, expect, it } from 'vitest'
import { namespaces } from '../../src/renderer/src/i18n/locales'

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

describe('translations', () => {
  for (const [ns, texts] of Object.entries(namespaces)) {
    it(`${ns}: pt-BR and en have the same keys, none empty`, () => {
      expect(keys(texts.en).sort()).toEqual(keys(texts['pt-BR']).sort())
      for (const lang of ['pt-BR', 'en'] as const) {
        const flat = JSON.stringify(texts[lang])
        expect(flat).not.toContain('""')
      }
    })
  }
})
