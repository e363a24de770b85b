/**
 * Issue #24 in Chromium: a R$ 100,00 row whose stored name carries bidi controls must not display as
 * "Fornecedor R$ 5.000,00". The page lays out the name as the app renders it (SafeText: hidden characters made
 * visible, text isolated) next to the amount, and the test reads the characters in their *visual* order (each
 * character's box, left to right). Without SafeText the same markup does read "R$ 5.000,00" — the control case
 * shows the test can fail.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test, type Page } from '@playwright/test'
import { SafeText } from '../../../src/renderer/src/components/SafeText'

/** Names someone could type or write into a shared row: RLO over reversed text, and an RTL isolate (RLI … PDI). */
const TRICKS = [`Fornecedor \u202E00,000.5 $R\u202C`, `Fornecedor \u20675.000,00 $R\u2069`]

/** The characters of `#cell` in visual order: each character's box left to right, one line. */
async function visualText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const cell = document.getElementById('cell') as HTMLElement
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
    const boxes: Array<{ x: number; c: string }> = []
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? ''
      for (let i = 0; i < text.length; i++) {
        const c = text[i] as string
        if (/[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(c)) continue
        const r = document.createRange()
        r.setStart(n, i)
        r.setEnd(n, i + 1)
        const rect = r.getBoundingClientRect()
        if (rect.width > 0) boxes.push({ x: rect.left, c })
      }
    }
    return boxes
      .sort((a, b) => a.x - b.x)
      .map((b) => b.c)
      .join('')
  })
}

async function show(page: Page, nameHtml: string): Promise<string> {
  await page.setContent(
    `<!doctype html><html lang="pt-BR"><body style="font: 16px sans-serif">` +
      `<div id="cell" style="white-space: nowrap">${nameHtml}</div></body></html>`,
  )
  return visualText(page)
}

test('a bidi-trick name reads as itself, never as another amount', async ({ page }) => {
  for (const name of TRICKS) {
    // Control: the raw text, as an unprotected screen would put it.
    const raw = await show(page, renderToStaticMarkup(createElement('span', null, name)))
    expect(raw.replace(/\s+/g, ' ')).toContain('R$ 5.000,00')
    // The app's rendering.
    const safe = await show(page, renderToStaticMarkup(createElement(SafeText, { text: name })))
    expect(safe.replace(/\s+/g, ' ')).not.toContain('R$ 5.000,00')
    expect(safe).toContain('⟦U+')
  }
})
