import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { profileMessages } from '../../../src/shared/profile'
import { expect, test } from '../support/app-fixture'

async function seriousA11yViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

async function openSettings(page: Page, name = 'Configurações'): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name }).click()
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
}

test('the sandbox session, vault status, allowances and signing key, in pt-BR and en', async ({ app }) => {
  const { page } = app
  await openSettings(page)

  const session = page.getByTestId('session')
  await session.getByRole('button', { name: /^Entrar/ }).click()
  const view = await app.ctx.router.handle('session:get', undefined)
  if (!view.ok || !view.data) throw new Error('no sandbox session')
  const s = view.data as { sub: string; scopes: string[]; env: string; accessExpiresAt: string }
  await expect(page.getByTestId('session-sub')).toHaveText(s.sub)
  // In words; the API's scope names stay in an attribute (and the title on hover).
  for (const scope of s.scopes) {
    await expect(page.getByTestId('session-scopes').locator(`[data-scope="${scope}"]`)).toHaveCount(1)
  }
  await expect(page.getByTestId('session-scopes')).toContainText('pagamentos')
  await expect(page.getByTestId('session-env')).toHaveText(s.env)
  await expect(page.getByTestId('session-kind')).toHaveText('Credenciais de cliente')
  const expiry = page.getByTestId('session-expiry').locator('time')
  await expect(expiry).toHaveAttribute('datetime', s.accessExpiresAt)
  await expect(expiry).toContainText(String(new Date(s.accessExpiresAt).getFullYear()))
  await expect(page.getByTestId('env-warning')).toHaveCount(0)

  // The fixture's vault is memory-only: the page must say so plainly.
  const vault = page.getByTestId('vault-status')
  await expect(vault).toContainText('só na memória')
  await expect(vault).toContainText('precisarão ser informados de novo depois de reiniciar')
  await expect(vault).toContainText('criptografia do sistema operacional não está disponível')

  const sandboxRow = page.locator('tr[data-profile-id="sandbox"]')
  await expect(sandboxRow).toContainText('em uso')
  await expect(sandboxRow).toContainText('Embutido')
  await expect(sandboxRow.getByRole('button')).toHaveCount(0)

  // Configurações is in tabs: limits, the signing key and backups are under "Segurança e limites".
  await page.getByRole('tab', { name: 'Segurança e limites' }).click()
  const allowances = page.getByTestId('allowances')
  await expect(allowances.locator('tbody tr')).toHaveCount(7)
  await expect(allowances.locator('tr[data-endpoint="withdraw"] td').first()).toHaveText('10')
  for (const cell of await allowances.locator('tbody tr td:nth-child(3)').allTextContents()) {
    expect(cell).toMatch(/^\d+$/)
  }

  const key = await app.ctx.router.handle('records:publicKey', undefined)
  if (!key.ok) throw new Error('no signing key')
  const { fingerprint, publicKeyPem } = key.data as { fingerprint: string; publicKeyPem: string }
  await expect(page.getByTestId('signing-fingerprint')).toHaveText(fingerprint)
  await page.getByText('Chave pública completa (PEM)').click()
  await expect(page.getByTestId('signing-pem')).toContainText(publicKeyPem.split('\n')[1] ?? '')

  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('settings-pt-BR')

  // The tabs follow the keyboard pattern: arrows move and select, Home goes to the first.
  await page.getByRole('tab', { name: 'Segurança e limites' }).press('ArrowLeft')
  await expect(page.getByRole('tab', { name: 'Pagamentos e avisos' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(page.getByRole('tab', { name: 'Pagamentos e avisos' })).toBeFocused()
  await expect(page.getByTestId('notifications-switch')).toBeVisible()
  await page.keyboard.press('Home')
  await expect(page.getByRole('tab', { name: 'Perfis, sessão e idioma' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await page.getByLabel('Idioma da interface').selectOption('en')
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible()
  await expect(page.getByTestId('vault-status')).toContainText('must be entered again after restarting')
  await expect(page.getByTestId('session-kind')).toHaveText('Client credentials')
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('settings-en')
})

test('the language choice is saved and survives a restart of the window', async ({ app }) => {
  const { page } = app
  await openSettings(page)
  await page.getByLabel('Idioma da interface').selectOption('en')
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible()
  const saved = await app.ctx.router.handle('settings:get', undefined)
  expect(saved.ok && (saved.data as { language: string }).language).toBe('en')

  await page.reload()
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Settings' })).toBeVisible()
  await openSettings(page, 'Settings')
  await expect(page.getByLabel('Interface language')).toHaveValue('en')
  await page.getByLabel('Interface language').selectOption('pt-BR')
  await expect(page.getByRole('heading', { level: 2, name: 'Configurações' })).toBeVisible()
})

test('adding a live profile: field messages keep what was typed; the secret never reaches the page', async ({
  app,
}) => {
  const { page } = app
  const credential = app.sandbox.control.createCredential({ label: 'e2e-live', scopes: ['all'] })
  await openSettings(page)
  await page.getByRole('button', { name: 'Adicionar perfil de produção' }).click()
  const form = page.getByRole('form', { name: 'Novo perfil de produção' })
  await expect(form.getByLabel('Nome')).toBeFocused()

  await form.getByLabel('Nome').fill('Produção E2E')
  await form.getByLabel('Endereço da API').fill('http://api.example.com')
  await form.getByLabel('Identificador do cliente', { exact: true }).fill(credential.clientId)
  await form.getByLabel('Senha do cliente', { exact: true }).fill(credential.clientSecret)
  await form.getByRole('button', { name: 'Adicionar perfil' }).click()

  const url = form.getByLabel('Endereço da API')
  await expect(form.getByText(profileMessages.base_url_https_required['pt-BR'])).toBeVisible()
  await expect(url).toHaveAttribute('aria-invalid', 'true')
  await expect(url).toBeFocused()
  await expect(form.getByLabel('Nome')).toHaveValue('Produção E2E')
  await expect(form.getByLabel('Identificador do cliente', { exact: true })).toHaveValue(credential.clientId)
  await expect(form.getByLabel('Senha do cliente', { exact: true })).toHaveValue(credential.clientSecret)
  await expect(form.getByLabel('Senha do cliente', { exact: true })).toHaveAttribute('type', 'password')
  await expect(form.getByLabel('Senha do cliente', { exact: true })).toHaveAttribute('autocomplete', 'off')
  expect(app.bridge.calls.filter((c) => c.channel === 'profiles:addLive')).toHaveLength(0)
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('settings-add-profile-error-pt-BR')

  // The sandbox listens on loopback, where plain http is allowed for a live profile.
  await url.fill(app.sandbox.baseUrl)
  await form.getByRole('button', { name: 'Adicionar perfil' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Perfil Produção E2E adicionado' })).toBeVisible()
  await expect(form).toHaveCount(0)

  const list = await app.ctx.router.handle('profiles:list', undefined)
  const added =
    list.ok && (list.data as { profiles: Array<{ id: string; name: string; hasSecret: boolean }> })
  const profile = added && added.profiles.find((p) => p.name === 'Produção E2E')
  if (!profile) throw new Error('profile not added')
  expect(profile.hasSecret).toBe(true)
  const row = page.locator(`tr[data-profile-id="${profile.id}"]`)
  await expect(row).toContainText('Produção E2E')
  await expect(row).toContainText(credential.clientId)
  await expect(row.getByTestId('has-secret')).toHaveText('Guardado')
  expect(await page.content()).not.toContain(credential.clientSecret)
  const results = JSON.stringify(app.bridge.calls.map((c) => c.result))
  expect(results).not.toContain(credential.clientSecret)

  // Using it: a sandbox token on a live profile is called out loudly.
  await row.getByRole('button', { name: 'Usar este perfil: Produção E2E' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Perfil em uso agora: Produção E2E' }),
  ).toBeVisible()
  await expect(row).toContainText('em uso')
  await expect(page.getByTestId('active-profile')).toContainText('Produção E2E')
  await page
    .getByTestId('session')
    .getByRole('button', { name: /^Entrar/ })
    .click()
  await expect(page.getByTestId('env-warning')).toContainText('credencial de testes em um perfil de produção')
  expect(await page.content()).not.toContain(credential.clientSecret)
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('settings-live-profile-pt-BR')

  // Editing: the partner rate and one endpoint's limit; a blank limit keeps the API contract default.
  await row.getByRole('button', { name: 'Editar Produção E2E' }).click()
  const editForm = page.getByRole('form', { name: 'Editar perfil Produção E2E' })
  await editForm.getByLabel('Tarifa do parceiro').fill('1,5')
  await editForm.getByRole('button', { name: 'Salvar alterações' }).click()
  await expect(editForm.getByText(profileMessages.partner_rate_invalid['pt-BR'])).toBeVisible()
  await editForm.getByLabel('Tarifa do parceiro').fill('150')
  await editForm.getByLabel('Criar pagamento (padrão 10 por minuto)').fill('5')
  await editForm.getByRole('button', { name: 'Salvar alterações' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Perfil Produção E2E atualizado' })).toBeVisible()
  const edited = await app.ctx.router.handle('profiles:list', undefined)
  const after =
    edited.ok &&
    (
      edited.data as { profiles: Array<{ id: string; partnerRateBps: number; rateLimits: object }> }
    ).profiles.find((p) => p.id === profile.id)
  expect(after && [after.partnerRateBps, after.rateLimits]).toEqual([150, { withdraw: 5 }])

  // Replacing and then removing it: back on the Sandbox.
  await row.getByRole('button', { name: 'Credenciais de Produção E2E' }).click()
  const credForm = page.getByRole('form', { name: 'Credenciais de Produção E2E' })
  await credForm.getByRole('button', { name: 'Guardar credenciais' }).click()
  await expect(credForm.getByText(profileMessages.client_secret_required['pt-BR'])).toBeVisible()
  await credForm.getByRole('button', { name: 'Cancelar' }).click()
  await expect(row.getByRole('button', { name: 'Credenciais de Produção E2E' })).toBeFocused()

  await row.getByRole('button', { name: 'Remover Produção E2E' }).click()
  await page.getByRole('button', { name: 'Remover definitivamente' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Perfil Produção E2E removido' })).toBeVisible()
  await expect(row).toHaveCount(0)
  await expect(page.locator('tr[data-profile-id="sandbox"]')).toContainText('em uso')
})

test('a duplicate name is refused by main and shown on the name field', async ({ app }) => {
  const { page } = app
  const credential = app.sandbox.control.createCredential({ label: 'e2e-dup', scopes: ['all'] })
  await openSettings(page)
  await page.getByRole('button', { name: 'Adicionar perfil de produção' }).click()
  const form = page.getByRole('form', { name: 'Novo perfil de produção' })
  await form.getByLabel('Nome').fill('Sandbox')
  await form.getByLabel('Endereço da API').fill(app.sandbox.baseUrl)
  await form.getByLabel('Identificador do cliente', { exact: true }).fill(credential.clientId)
  await form.getByLabel('Senha do cliente', { exact: true }).fill(credential.clientSecret)
  await form.getByRole('button', { name: 'Adicionar perfil' }).click()
  await expect(form.getByText(profileMessages.name_taken['pt-BR']).first()).toBeVisible()
  await expect(form.getByLabel('Nome')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByLabel('Nome')).toHaveValue('Sandbox')
})
