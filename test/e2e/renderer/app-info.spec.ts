import { expect, test } from '../support/app-fixture'

test('first run opens on the Sandbox profile: banner, app:info from the real router, no CSP violation', async ({
  app,
}) => {
  const { page, bridge } = app
  const cspViolations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text())
  })
  const info = page.getByTestId('app-info')
  await expect(info).toContainText('0.0.0-e2e')
  await expect(page.getByTestId('active-profile')).toContainText('Sandbox')
  await expect(page.getByTestId('sandbox-banner')).toContainText('Sandbox')
  expect(bridge.calls.map((c) => c.channel)).toContain('app:info')
  await page.getByLabel('Idioma').selectOption('en')
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  expect(app.ctx.profiles.settings().language).toBe('en')
  expect(cspViolations).toEqual([])
})
