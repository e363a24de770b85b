/**
 * Settings → "Livro-caixa da equipe" against a real team server (throwaway PostgreSQL cluster set up with
 * resources/team-ledger/setup.sql): field refusals in pt-BR keep what was typed; "Testar conexão" tells a wrong
 * password from a working connection (the role, the approval threshold in R$); save, test with the stored
 * password, and back to this computer's ledger.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { teamLedgerMessages, teamTestMessages } from '../../../src/shared/team-ledger'
import { expect, onToday, test } from '../support/app-fixture'
import { startTeam, TEAM_DATABASE, TEAM_SKIP_REASON, type Team } from '../support/team-server'
import { foreignWords } from './rendered-language'

test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')
test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

let team: Team
test.beforeAll(async () => {
  test.setTimeout(120_000)
  team = await startTeam()
  await team.addAnalyst('ana')
  const owner = await team.owner()
  await owner.query('UPDATE ledger.team_settings SET approval_above_cents = 500000')
})
test.afterAll(async () => {
  await team?.stop()
})

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Configurações' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Configurações' })).toBeVisible()
}

test('team ledger connection: field errors keep the input, test, save, back to this computer', async ({
  app,
}) => {
  const { page } = app
  await openSettings(page)
  const section = page.getByTestId('team-ledger')
  await expect(section.getByRole('heading', { name: 'Livro-caixa da equipe' })).toBeVisible()
  await expect(section.getByTestId('team-ledger-using')).toHaveText(
    'Este perfil usa o livro-caixa deste computador.',
  )

  const host = section.getByLabel('Servidor (nome ou IP)')
  const port = section.getByLabel('Porta')
  const database = section.getByLabel('Banco', { exact: true })
  const role = section.getByLabel('Usuário do banco', { exact: true })
  const password = section.getByTestId('team-password')
  const tls = section.getByLabel('Conexão segura (TLS)')
  await expect(tls).toHaveValue('verify-full')

  // A network host without TLS, and a port that is no number: refused in pt-BR, nothing typed is lost.
  await host.fill('db.equipe.example')
  await port.fill('54x2')
  await database.fill(TEAM_DATABASE)
  await role.fill('ana')
  await password.fill('not-her-password')
  await tls.selectOption('disable')
  await section.getByRole('button', { name: 'Salvar e conectar' }).click()
  await expect(section.getByText(teamLedgerMessages.port_invalid['pt-BR'])).toBeVisible()
  // The TLS rule spans two fields: zod checks it once every field is valid on its own.
  await port.fill('5432')
  await section.getByRole('button', { name: 'Salvar e conectar' }).click()
  await expect(section.getByText(teamLedgerMessages.tls_required['pt-BR'])).toBeVisible()
  await expect(section.getByText(teamLedgerMessages.port_invalid['pt-BR'])).toHaveCount(0)
  await port.fill('54x2')
  await expect(host).toHaveValue('db.equipe.example')
  await expect(port).toHaveValue('54x2')
  await expect(role).toHaveValue('ana')
  await expect(password).toHaveValue('not-her-password')
  await expect(tls).toHaveValue('disable')
  await expect(tls).toHaveAttribute('aria-invalid', 'true')
  expect((await app.ctx.router.handle('team:get', undefined)) as unknown).toMatchObject({
    data: { settings: null, hasPassword: false },
  })

  // The team's server on this computer, with a wrong password.
  await host.fill('127.0.0.1')
  await port.fill(String(team.cluster.port))
  await section.getByRole('button', { name: 'Testar conexão' }).click()
  const result = section.getByTestId('team-test-result')
  await expect(result).toHaveAttribute('data-verdict', 'auth_failed')
  await expect(result).toContainText(teamTestMessages.auth_failed['pt-BR'])
  await expect(section.getByText(teamLedgerMessages.tls_required['pt-BR'])).toHaveCount(0)
  const technical = result.getByTestId('team-test-technical')
  await expect(technical).not.toHaveAttribute('open')
  await technical.locator('summary').click()
  await expect(technical).toContainText('SQLSTATE 28P01')
  await expect(section).not.toContainText('not-her-password')

  // The right password: the role the server knows, the schema, the approval threshold in R$.
  await password.fill('ana-pw')
  await section.getByRole('button', { name: 'Testar conexão' }).click()
  await expect(result).toHaveAttribute('data-verdict', 'ok')
  await expect(result.getByTestId('team-identity')).toHaveText('ana')
  await expect(result.getByTestId('team-approval')).toHaveText('acima de R$ 5.000,00')
  await expect(result.getByTestId('team-test-technical')).toHaveCount(0)
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="team-ledger"]').analyze()
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([])
  await app.screenshot('team-settings-pt-BR')

  // Saved: the password is kept by main and never shown back; a test reuses it for the same server.
  await section.getByRole('button', { name: 'Salvar e conectar' }).click()
  await expect(section.getByText('Salvo: este perfil agora usa o livro-caixa da equipe.')).toBeVisible()
  await expect(section.getByTestId('team-ledger-using')).toHaveText(
    `Este perfil usa o livro-caixa da equipe: ana em 127.0.0.1:${team.cluster.port}/${TEAM_DATABASE}.`,
  )
  await expect(password).toHaveValue('')
  await expect(section.getByText('Senha guardada.', { exact: false })).toBeVisible()
  // The team's settings history from its audit chain (issue #31): the owner's UPDATE in beforeAll is recorded.
  const changes = section.getByTestId('team-changes')
  await expect(changes.getByRole('heading', { name: 'Mudanças de configuração da equipe' })).toBeVisible()
  await expect(changes.getByRole('listitem')).toHaveCount(1)
  await expect(changes.getByRole('listitem')).toContainText(
    'depix_owner mudou o limite de aprovação: sem aprovação → acima de R$ 5.000,00',
  )
  await section.getByRole('button', { name: 'Testar conexão' }).click()
  await expect(result).toHaveAttribute('data-verdict', 'ok')
  expect(app.ctx.profiles.teamLedgerConnection('sandbox')?.password).toBe('ana-pw')

  // Back to this computer's ledger: settings and password gone.
  await section.getByRole('button', { name: 'Voltar para o livro-caixa deste computador' }).click()
  await expect(section.getByTestId('team-ledger-using')).toHaveText(
    'Este perfil usa o livro-caixa deste computador.',
  )
  expect(app.ctx.profiles.teamLedgerConnection('sandbox')).toBeNull()
  await expect(host).toHaveValue('')

  await page.getByLabel('Idioma da interface').selectOption('en')
  await expect(section.getByRole('heading', { name: 'Team ledger' })).toBeVisible()
  expect(await foreignWords(page, 'en')).toEqual([])
})
