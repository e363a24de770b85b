import { expect, test } from '@playwright/test'
import { appInfo } from '../../../src/main/app-info'
import { createAppRouter } from '../../../src/main/handlers'
import { openRenderer } from '../support/bridge'

test('the built renderer shows app:info from the real router, under the app CSP', async ({ page }) => {
  const cspViolations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text())
  })
  const router = createAppRouter({
    info: () =>
      appInfo({ name: 'Tesouraria DePix', version: '9.9.9-test', platform: 'linux', sandbox: true }),
  })
  const bridge = await openRenderer(page, router)
  const info = page.getByTestId('app-info')
  await expect(info).toContainText('9.9.9-test')
  await expect(info).toContainText('linux')
  await expect(page.getByRole('status')).toContainText('Sandbox')
  expect(bridge.calls.map((c) => c.channel)).toContain('app:info')
  await page.getByLabel('Idioma').selectOption('en')
  await expect(page.getByRole('heading', { name: 'About this app' })).toBeVisible()
  expect(cspViolations).toEqual([])
})
