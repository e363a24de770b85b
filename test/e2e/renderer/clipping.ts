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
