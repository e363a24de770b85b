/**
 * Amounts on screen: one DePix display form (formatDePix) in both languages, the wallet form only where it is
 * copied (and the copy button says so), and the totals line by meaning.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { CopyButton } from '../../src/renderer/src/components/CopyButton'
import { DePix } from '../../src/renderer/src/components/format'
import { ToleranceRule } from '../../src/renderer/src/components/funding/ToleranceRule'
import { MeaningTotals } from '../../src/renderer/src/components/records-table/MeaningTotals'
import i18n from '../../src/renderer/src/i18n'
import type { StatusTotal } from '../../src/shared/withdrawal-record'

const text = (el: React.ReactElement): string =>
  renderToStaticMarkup(el)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim()

afterEach(async () => {
  await i18n.changeLanguage('pt-BR')
})

describe('DePix amounts', () => {
  it('show grouped, with 8 decimals, in the language of the screen', async () => {
    expect(text(createElement(DePix, { cents: 436_465 }))).toBe('4.364,65000000 DePix')
    await i18n.changeLanguage('en')
    expect(text(createElement(DePix, { cents: 436_465 }))).toBe('4,364.65000000 DePix')
  })

  it('the ±5% rule uses the same form for every DePix amount (no wallet form mixed with R$)', () => {
    const rule = text(createElement(ToleranceRule, { cents: 10_102, toleranceBps: 500 }))
    expect(rule).toContain('Envie exatamente 101,02000000 DePix')
    expect(rule).toContain('entre 95,97000000 DePix e 106,07000000 DePix')
    expect(rule).not.toMatch(/\d\.\d{8}/)
  })

  it('the copy button copies the wallet form and says that it does', () => {
    const html = renderToStaticMarkup(
      createElement(CopyButton, {
        text: '4364.65000000',
        label: 'Copiar valor',
        note: i18n.t('funding:instructions.copyAmountNote', { amount: '4364.65000000' }),
      }),
    )
    expect(html).toContain('Copia 4364.65000000, o valor que a carteira aceita.')
    // The note describes the button for screen readers too.
    const id = /<span id="([^"]+)"[^>]*data-testid="copy-note"/.exec(html)?.[1]
    expect(id).toBeTruthy()
    expect(html).toContain(`aria-describedby="${id}"`)
  })
})

describe('MeaningTotals', () => {
  const t = (
    status: string,
    hasRefund: boolean,
    count: number,
    d: number,
    p: number,
    fee = 0,
  ): StatusTotal => ({
    status,
    hasRefund,
    count,
    depositCents: d,
    payoutCents: p,
    refundFeeCents: fee,
  })
  // The case: R$ 1.024,00 over every status, R$ 150,00 actually paid.
  const totals = [
    t('sent', false, 1, 15_150, 15_000),
    t('unsent', false, 3, 60_600, 60_000),
    t('refunded', true, 2, 27_500, 27_400, 200),
  ]

  it('shows what was paid apart from open and returned money, and the fees', () => {
    const html = renderToStaticMarkup(createElement(MeaningTotals, { totals }))
    const row = (k: string): string =>
      (new RegExp(`<tr data-meaning="${k}">.*?</tr>`).exec(html)?.[0] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    // R$ where a person reads (1 DePix = R$ 1,00); the 8-decimal DePix form is for what is copied to a wallet.
    expect(row('paid')).toBe('Pago 1 R$ 151,50 R$ 150,00')
    expect(row('open')).toBe('Em aberto 3 R$ 606,00 R$ 600,00')
    expect(row('returned')).toBe('Devolvido 2 R$ 275,00 R$ 274,00')
    expect(html).not.toContain('DePix</span>')
    expect(html).not.toContain('R$ 1.024,00')
    expect(text(createElement(MeaningTotals, { totals }))).toContain('Tarifas pagas R$ 1,50')
    expect(text(createElement(MeaningTotals, { totals }))).toContain('Tarifas retidas nas devoluções R$ 2,00')
  })
})
