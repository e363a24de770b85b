/**
 * Keyboard-only helpers for the journeys (issue #26): reach a control with Tab or Shift+Tab only, and check the
 * focus is visible where it landed.
 */
import type { Locator, Page } from '@playwright/test'
import { expect } from '../support/app-fixture'

/** Tab (or Shift+Tab) until `target` has focus: the only way a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator, back = false): Promise<void> {
  await expect(target).toBeAttached()
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`not reachable by keyboard: ${target.toString()}`)
}

/**
 * The focused element shows a focus ring: an outline that is drawn (style not none, width above 0). The file
 * picker's input is visually hidden behind its button-like label, which carries the ring instead.
 */
export async function expectVisibleFocus(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    let el = document.activeElement
    if (!el || el === document.body) return 'nothing focused'
    if (el instanceof HTMLInputElement && el.type === 'file' && el.nextElementSibling)
      el = el.nextElementSibling
    const s = getComputedStyle(el)
    const width = parseFloat(s.outlineWidth)
    return s.outlineStyle !== 'none' && width > 0
      ? 'visible'
      : `${el.tagName} outline ${s.outlineStyle} ${width}`
  })
  expect(ring).toBe('visible')
}
