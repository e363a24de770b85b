/**
 * Text clipped or spilling out of its box (issue #26, at 1024×700): a cell, badge, chip or button whose content is
 * wider than the box. Truncation on purpose is allowed where the full value is one hover away (a `title` on the
 * element or its parent) — the design system's `.cell-trunc` also opens up on focus.
 */
import type { Page } from '@playwright/test'

export async function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const boxes = document.querySelectorAll<HTMLElement>(
      'td, th, .badge, .chip, button, .btn, .tab, .today-line span, dt, dd',
    )
    for (const el of boxes) {
      if (el.closest('[data-technical]')) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      const text = (el.innerText || '').trim()
      if (text === '') continue
      if (el.scrollWidth <= el.clientWidth + 1) continue
      const titled =
        el.title !== '' || (el.parentElement?.title ?? '') !== '' || el.querySelector('[title]') !== null
      if (titled) continue
      const where =
        el.getAttribute('data-testid') ?? el.getAttribute('data-col') ?? el.className ?? el.tagName
      out.push(`${el.tagName.toLowerCase()}[${where}]: ${text.slice(0, 40)}`)
    }
    return out
  })
}

/**
 * Amounts broken over two lines ("R$" at the end of one, "56.590,80" on the next — issue #26): every "R$ 1.234,56"
 * or "1.234,56 DePix" in the page's text whose range covers more than one line box.
 */
export async function wrappedMoney(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const money = /R\$\s?\d[\d.]*(?:,\d+)?|\d[\d.]*,\d+\sDePix/g
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      const parent = node.parentElement
      if (!parent || parent.closest('[data-technical], script, style')) continue
      for (const m of text.matchAll(money)) {
        const range = document.createRange()
        range.setStart(node, m.index)
        range.setEnd(node, m.index + m[0].length)
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        )
        if (lines.size > 1) out.push(`${parent.tagName.toLowerCase()}: ${m[0]}`)
      }
    }
    return out
  })
}
