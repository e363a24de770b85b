/**
 * The team's shared books in the renderer (issue #16, t16payee and t16dep), on the real main: a throwaway
 * PostgreSQL cluster, the embedded sandbox, desk A (bruno) is the page, desk B (ana) a colleague driven through its
 * router (support/team-desks.ts).
 * - The payee book: desk B saves an entry desk A has open in the editor; desk A's save is refused with the
 *   conflict message, nothing of desk B's is overwritten, and what desk A typed stays in the fields.
 *   An entry desk B adds appears on desk A's open list without a reload (LISTEN depix_payees).
 * - Top-ups: one made on desk B shows on desk A's "Compras de DePix" without a reload (LISTEN depix_deposits →
 *   `deposit:changed`); one POST /deposit each, counted at the sandbox.
 */
import type { Page } from '@playwright/test'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import type { Payee } from '../../../src/shared/payee'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { onToday } from '../support/app-fixture'
import { expect, test, type Colleague } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { expectNoSeriousAxe, openNav } from './records-helpers'
import { foreignWords } from './rendered-language'
import { CPF } from './withdrawal-steps'

test.use({ appOptions: onToday() })

const CONFLICT =
  'Outro analista alterou este favorecido depois que você o abriu. Nada foi gravado: feche, abra de novo para ver a versão atual e refaça sua alteração.'

async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
}

/** A mark in the page's window: gone if the page reloads. */
const markWindow = (page: Page): Promise<void> =>
  page.evaluate(() => {
    ;(window as unknown as { __sameWindow: number }).__sameWindow = 1
  })
const sameWindow = (page: Page): Promise<boolean> =>
  page.evaluate(() => (window as unknown as { __sameWindow?: number }).__sameWindow === 1)

const depositPosts = (app: { sandbox: { control: { requestCounts(): Record<string, number> } } }): number =>
  app.sandbox.control.requestCounts()['POST /api/deposit'] ?? 0

/** Desk B tops up as its "Comprar DePix" does: quote (the one-use intent), then create. */
async function topUpOnB(colleague: Colleague, amountCents: number): Promise<DepositRecord> {
  const draft = {
    amountCents,
    depixAddress: generateLiquidAddress('liquid', { confidential: true }).address,
    endUserTaxNumber: CPF,
  }
  const q = await colleague.ok<{ intent: { id: string } }>('deposits:quote', { draft })
  return colleague.ok<DepositRecord>('deposits:create', { draft, intentId: q.intent.id })
}

test.describe('the team’s shared books, two desks', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('a payee saved on desk B while desk A has it open: desk A’s save says so, keeps what was typed, overwrites nothing', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    const entry = {
      name: 'Construtora Horizonte Ltda',
      taxNumber: '11.222.333/0001-81',
      pixKeys: [{ key: 'pagamentos@horizonte.example' }],
      notes: 'Contrato 2026',
    }
    const created = await colleague.ok<Payee>('payees:create', entry)

    // Desk A opens the entry desk B made (the team's book, not this computer's file).
    await openNav(page, 'Favorecidos')
    const row = page.locator(`tr[data-payee-id="${created.id}"]`)
    await expect(row).toContainText('Construtora Horizonte Ltda')
    await expect(row).toContainText('11.222.333/0001-81')
    await row.getByRole('button', { name: 'Editar' }).click()
    const editor = page.getByTestId('payee-editor')
    const name = editor.getByLabel('Nome (como o banco o conhece)')
    const notes = editor.getByLabel('Observações (opcional)')
    await expect(name).toHaveValue('Construtora Horizonte Ltda')
    await name.fill('Construtora Horizonte S.A.')
    await notes.fill('Razão social nova, conferida por telefone')

    // Meanwhile desk B saves its own change of the same entry.
    const theirs = await colleague.ok<Payee>('payees:update', {
      id: created.id,
      payee: { ...entry, notes: 'Conta nova no banco' },
      expectedUpdatedAt: created.updatedAt,
    })
    expect(theirs.notes).toBe('Conta nova no banco')

    await editor.getByRole('button', { name: 'Salvar favorecido' }).click()
    const alert = editor.getByRole('alert')
    await expect(alert).toHaveAttribute('data-error-code', 'payee_changed')
    await expect(alert.locator('.alert-title')).toHaveText(CONFLICT)
    // Still open, with every word the analyst typed.
    await expect(editor).toBeVisible()
    await expect(name).toHaveValue('Construtora Horizonte S.A.')
    await expect(notes).toHaveValue('Razão social nova, conferida por telefone')
    await expect(editor.getByLabel('Chave Pix 1', { exact: true })).toHaveValue(
      'pagamentos@horizonte.example',
    )
    await expect(page.getByTestId('payees-notice')).toHaveCount(0)
    await expectPtBR(page)
    await expectNoSeriousAxe(page)
    await app.screenshot('team-payee-conflict-pt-BR')

    // Nothing of desk A reached the book: desk B's version is the book's, on both desks.
    const onB = await colleague.ok<{ rows: Payee[] }>('payees:list', { text: 'horizonte' })
    expect(onB.rows.map((p) => [p.name, p.notes])).toEqual([
      ['Construtora Horizonte Ltda', 'Conta nova no banco'],
    ])

    // Closed and opened again, desk A sees the current version and its change, redone, is saved.
    await editor.getByRole('button', { name: 'Cancelar' }).click()
    await expect(row).toContainText('Conta nova no banco')
    await row.getByRole('button', { name: 'Editar' }).click()
    await expect(notes).toHaveValue('Conta nova no banco')
    await name.fill('Construtora Horizonte S.A.')
    await editor.getByRole('button', { name: 'Salvar favorecido' }).click()
    await expect(page.getByTestId('payees-notice')).toHaveText(
      'Construtora Horizonte S.A. foi salvo no cadastro.',
    )
    const after = await colleague.ok<{ rows: Payee[] }>('payees:list', { text: 'horizonte' })
    expect(after.rows.map((p) => [p.name, p.notes])).toEqual([
      ['Construtora Horizonte S.A.', 'Conta nova no banco'],
    ])
    await expectPtBR(page)

    // Desk B adds an entry: desk A's open list shows it with no reload and no search (LISTEN depix_payees →
    // payee:changed → the page re-reads the book).
    await markWindow(page)
    const added = await colleague.ok<Payee>('payees:create', {
      name: 'Transportadora Rota Sul Ltda',
      taxNumber: '04.252.011/0001-10',
      pixKeys: [{ key: 'financeiro@rotasul.example' }],
    })
    await expect(page.locator(`tr[data-payee-id="${added.id}"]`)).toContainText(
      'Transportadora Rota Sul Ltda',
    )
    expect(await sameWindow(page)).toBe(true)
  })

  test('a top-up made on desk B shows on desk A’s list without a reload', async ({ app, colleague }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
    await openNav(page, 'Compras de DePix')
    await expect(page.getByRole('heading', { level: 2, name: 'Compras de DePix' })).toBeVisible()
    await expect(page.getByTestId('deposit-row')).toHaveCount(0)
    await markWindow(page)
    const posts0 = depositPosts(app)

    const first = await topUpOnB(colleague, 25_000)
    expect(depositPosts(app)).toBe(posts0 + 1)
    const rows = page.getByTestId('deposit-row')
    await expect(rows).toHaveCount(1)
    await expect(page.locator(`[data-testid="deposit-row"][data-local-id="${first.localId}"]`)).toContainText(
      'R$ 250,00',
    )

    // A second one lands on top (newest first); the page was never reloaded and no call of desk A asked.
    const second = await topUpOnB(colleague, 73_050)
    await expect(rows).toHaveCount(2)
    await expect(rows.first()).toHaveAttribute('data-local-id', second.localId)
    await expect(rows.first()).toContainText('R$ 730,50')
    expect(await sameWindow(page)).toBe(true)
    expect(app.bridge.calls.some((c) => c.channel === 'deposits:create')).toBe(false)
    expect(depositPosts(app)).toBe(posts0 + 2)
    await expectPtBR(page)
    await expectNoSeriousAxe(page)

    // Desk A opens desk B's top-up: the team's record, with its amount.
    await rows.first().getByRole('button').click()
    await expect(page.getByTestId('deposit-detail')).toHaveAttribute('data-local-id', second.localId)
    await expect(page.getByTestId('deposit-amount')).toHaveText('R$ 730,50')
    await expectPtBR(page)
  })
})
