/**
 * Issue #14 part A in Chromium, through the real router, ledger file and sandbox: save a payee from a payment,
 * pay them again from the book, a name mismatch raised and shown, references found by search and present in a
 * verified export, a repeated payment meeting the duplicate guard, precise refusals that lose nothing typed (an
 * invalid CPF/CNPJ, a CSV import with bad rows), and the profile's default refund address.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { verifyExport } from '../../../src/main/records'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { expect, test, type TestApp } from '../support/app-fixture'
import { expectNoSeriousAxe, REFUND_ADDRESS, rpc } from './records-helpers'
import { fillForm } from './withdrawal-steps'

let tmp: string
test.beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'treasury-payees-'))
})
test.afterEach(() => rmSync(tmp, { recursive: true, force: true }))

async function nav(page: Page, id: string): Promise<void> {
  await page.getByTestId(`nav-${id}`).click()
}

/** Review, then create; returns the new record (the funding page's local id). */
async function reviewAndCreate(
  app: TestApp,
  o: { confirmDuplicate?: boolean; payeeName?: string } = {},
): Promise<WithdrawalRecord> {
  const { page } = app
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByTestId('review-summary')).toBeVisible()
  // Names first (issue #26): the review sentence names the payee picked from the book, not the key.
  if (o.payeeName) await expect(page.getByTestId('lead-sentence')).toContainText(`a ${o.payeeName}`)
  if (o.confirmDuplicate) await page.getByTestId('confirm-not-duplicate').check()
  await page.getByRole('button', { name: /Criar pagamento/ }).click()
  const funding = page.locator('.funding-page')
  await expect(funding).toBeVisible()
  const localId = (await funding.getAttribute('data-local-id')) ?? ''
  return rpc(app, 'withdrawals:get', { localId }).then((d) => d.record)
}

async function settleSent(app: TestApp, r: WithdrawalRecord): Promise<WithdrawalRecord> {
  await rpc(app, 'sandbox:fund', { localId: r.localId, mode: 'exact' })
  return rpc(app, 'sandbox:settle', { localId: r.localId, outcome: 'sent' })
}

async function openDetail(page: Page, localId: string): Promise<void> {
  await nav(page, 'withdrawals')
  await page.locator(`tr[data-local-id="${localId}"]`).click()
  await expect(page.getByTestId('lead')).toBeVisible()
}

test('save a payee from a payment, then pay them again from the book; the name mismatch is raised and shown', async ({
  app,
}) => {
  const { page } = app
  await fillForm(page, {
    pixKey: 'financeiro@fornecedora.example',
    taxNumber: '11.222.333/0001-81',
    amountDigits: '150000',
    refundAddress: REFUND_ADDRESS,
  })
  // "Salvar favorecido": the form's key and document go to the book under a name.
  await page.getByTestId('save-payee').click()
  await page.getByLabel('Nome do favorecido').fill('Fornecedora Exemplo Ltda')
  await page.getByRole('button', { name: 'Salvar no cadastro' }).click()
  await expect(page.getByTestId('payee-chosen')).toContainText(
    'Pagamento para Fornecedora Exemplo Ltda (11.222.333/0001-81).',
  )
  await page.getByLabel('Nota fiscal (NF)').fill('NF-e 4471')
  await page.getByLabel('Categoria').fill('Serviços de limpeza')

  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByTestId('review-payee')).toHaveText('Fornecedora Exemplo Ltda (11.222.333/0001-81)')
  await expect(page.getByTestId('review-references')).toHaveText(
    'Nota fiscal (NF): NF-e 4471 · Categoria: Serviços de limpeza',
  )
  await page.getByRole('button', { name: /Criar pagamento/ }).click()
  await expect(page.getByTestId('funding-expected-payee')).toHaveText(
    'Favorecido do cadastro: Fornecedora Exemplo Ltda (11.222.333/0001-81)',
  )
  const localId = (await page.locator('.funding-page').getAttribute('data-local-id')) ?? ''
  const first = (await rpc(app, 'withdrawals:get', { localId })).record
  expect(first.references).toEqual({ invoice: 'NF-e 4471', category: 'Serviços de limpeza' })
  expect(first.expectedPayee?.name).toBe('Fornecedora Exemplo Ltda')

  // The sandbox pays a key owner it knows by another name: not the supplier in the book.
  const settled = await settleSent(app, first)
  expect(settled.flags).toContain('payee_mismatch')
  await openDetail(page, localId)
  await expect(page.locator('[data-flag="payee_mismatch"]')).toContainText('titular da chave Pix diferente')
  const check = page.getByTestId('payee-check')
  await expect(check).toHaveAttribute('data-verdict', 'mismatch')
  await expect(check).toContainText('Favorecido diferente do cadastro')
  await expect(check.getByTestId('reported-name')).toHaveText('Beneficiário Sandbox')
  await expect(page.getByTestId('detail-references')).toContainText('NF-e 4471')
  await expectNoSeriousAxe(page)
  await app.screenshot('payees-detail-mismatch-pt-BR')

  // "Precisa de ação" lists it — by the book's name, as the mismatch with its reason, not as a green "Pago".
  await nav(page, 'withdrawals')
  await page.locator('[data-chip="attention"]').click()
  const listed = page.locator(`tr[data-local-id="${localId}"]`)
  await expect(listed).toBeVisible()
  await expect(listed).toContainText('Fornecedora Exemplo Ltda')
  await expect(listed.getByTestId('payee-mismatch')).toContainText('Favorecido diferente do cadastro')
  await expect(listed.getByTestId('payee-mismatch')).toHaveAttribute(
    'title',
    'O serviço informou “Beneficiário Sandbox” como titular da chave; o cadastro diz “Fornecedora Exemplo Ltda”.',
  )
  // Hoje has a card for it, with the reason on screen.
  await nav(page, 'today')
  const card = page.getByTestId('today-mismatches')
  await expect(card.locator('.today-count')).toHaveText('1')
  await expect(card).toContainText('O serviço informou “Beneficiário Sandbox” como titular da chave')

  // Pay them again from the book: the form opens with their key and document, linked, amount blank.
  await nav(page, 'payees')
  await page.getByLabel('Buscar por nome, CPF/CNPJ ou chave Pix').fill('fornecedora')
  const row = page.locator('tr[data-payee-id]')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('11.222.333/0001-81')
  await row.getByRole('button', { name: 'Pagar' }).click()
  await expect(page.getByTestId('payee-chosen')).toContainText('Fornecedora Exemplo Ltda')
  await expect(page.getByLabel('Chave Pix', { exact: true })).toHaveValue('financeiro@fornecedora.example')
  await expect(page.getByLabel('CPF ou CNPJ do favorecido')).toHaveValue('11.222.333/0001-81')
  await expect(page.locator('#amountCents')).toHaveValue('')
  await fillForm(page, {
    pixKey: 'financeiro@fornecedora.example',
    amountDigits: '89900',
    refundAddress: REFUND_ADDRESS,
  })
  const second = await reviewAndCreate(app, { payeeName: 'Fornecedora Exemplo Ltda' })
  expect(second.expectedPayee?.id).toBe(first.expectedPayee?.id)
  await expect(page.getByTestId('lead-sentence')).toContainText('a Fornecedora Exemplo Ltda')
  expect(second.amountCents).toBe(89_900)
})

test('a payee the service names as expected is checked; repeating it meets the duplicate guard', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'payees')
  await page.getByRole('button', { name: 'Novo favorecido' }).click()
  const editor = page.getByTestId('payee-editor')
  await editor.getByLabel('Nome (como o banco o conhece)').fill('Maria da Silva Sandbox')
  // An invalid CPF: refused on its field, in words, with everything typed still there.
  await editor.getByLabel('CPF ou CNPJ').fill('529.982.247-26')
  await editor.getByLabel('Chave Pix 1').fill('maria@example.com')
  await editor.getByLabel('Observações (opcional)').fill('Paga no dia 5')
  await editor.getByRole('button', { name: 'Salvar favorecido' }).click()
  await expect(editor.locator('[data-code="tax_number_check_digits"]')).toHaveText(
    'CPF/CNPJ inválido: confira os dígitos verificadores.',
  )
  await expect(editor.getByLabel('CPF ou CNPJ')).toHaveAttribute('aria-invalid', 'true')
  await expect(editor.getByLabel('Nome (como o banco o conhece)')).toHaveValue('Maria da Silva Sandbox')
  await expect(editor.getByLabel('Chave Pix 1')).toHaveValue('maria@example.com')
  await expect(editor.getByLabel('Observações (opcional)')).toHaveValue('Paga no dia 5')
  expect((await rpc(app, 'payees:list', {})).total).toBe(0)
  await expectNoSeriousAxe(page)
  await app.screenshot('payees-editor-invalid-pt-BR')

  await editor.getByLabel('CPF ou CNPJ').fill('529.982.247-25')
  await editor.getByRole('button', { name: 'Salvar favorecido' }).click()
  await expect(page.getByTestId('payees-notice')).toContainText(
    'Maria da Silva Sandbox foi salvo no cadastro.',
  )
  await page.locator('tr[data-payee-id]').getByRole('button', { name: 'Pagar' }).click()
  await fillForm(page, { pixKey: 'maria@example.com', amountDigits: '2500', refundAddress: REFUND_ADDRESS })
  await page.getByLabel('Centro de custo').fill('ADM-01')
  const paid = await settleSent(app, await reviewAndCreate(app))
  expect(paid.flags).not.toContain('payee_mismatch')
  await openDetail(page, paid.localId)
  await expect(page.getByTestId('payee-check')).toHaveAttribute('data-verdict', 'match')
  await expect(page.getByTestId('payee-check')).toContainText('Favorecido conferido')

  // Repetir pagamento: same payee, key, document, references and refund address; the amount is blank.
  await page.getByTestId('repeat-payment').click()
  await expect(page.getByTestId('repeat-notice')).toContainText('Repetindo o pagamento de R$ 25,00')
  await expect(page.getByTestId('payee-chosen')).toContainText('Maria da Silva Sandbox')
  await expect(page.getByLabel('Centro de custo')).toHaveValue('ADM-01')
  await expect(page.getByLabel('Endereço Liquid para devolução')).toHaveValue(REFUND_ADDRESS)
  await expect(page.locator('#amountCents')).toHaveValue('')
  await page.getByTestId('repeat-same-amount').click()
  // Same key and amount within 24 hours: the review shows the earlier one and Create waits for the confirmation.
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByTestId('duplicates')).toBeVisible()
  await expect(page.getByRole('button', { name: /Criar pagamento/ })).toBeDisabled()
  await page.getByTestId('confirm-not-duplicate').check()
  await page.getByRole('button', { name: /Criar pagamento/ }).click()
  await expect(page.locator('.funding-page')).toBeVisible()
  const repeated = (await rpc(app, 'withdrawals:list', { text: 'adm-01' })).rows
  expect(repeated).toHaveLength(2)
  expect(repeated.map((r) => r.flags.includes('duplicate_confirmed')).sort()).toEqual([false, true])
})

test('references are found by search and are in a verified export', async ({ app }) => {
  const { page } = app
  await fillForm(page, {
    pixKey: 'maria@example.com',
    taxNumber: '529.982.247-25',
    amountDigits: '12345',
    refundAddress: REFUND_ADDRESS,
  })
  await page.getByLabel('Nota fiscal (NF)').fill('NF 90817')
  await page.getByLabel('Observação').fill('Reembolso de viagem — março')
  const r = await reviewAndCreate(app)
  await createOther(app)

  await nav(page, 'withdrawals')
  await page.getByPlaceholder('Buscar').fill('90817')
  await expect(page.locator('tbody tr.vtable-row:not(.vtable-loading)')).toHaveCount(1)
  await expect(page.locator(`tr[data-local-id="${r.localId}"]`)).toBeVisible()

  await nav(page, 'records')
  app.nextDirectory(tmp)
  await page.getByRole('button', { name: 'Exportar…' }).click()
  await expect(page.getByTestId('export-result')).toContainText('Exportação concluída: 2 registros.')
  const manifestPath = (await page.getByTestId('manifest-path').textContent()) ?? ''
  const v = await verifyExport(manifestPath)
  expect(v.problems).toEqual([])
  expect(v.ok).toBe(true)
  const folder = dirname(manifestPath)
  expect(readFileSync(join(folder, 'records.csv'), 'utf8')).toContain('"NF 90817"')
  expect(readFileSync(join(folder, 'records.json'), 'utf8')).toContain(
    '"references":{"invoice":"NF 90817","note":"Reembolso de viagem — março"}',
  )
  expect(readFileSync(join(folder, 'report.html'), 'utf8')).toContain('NF 90817')
})

async function createOther(app: TestApp): Promise<void> {
  const draft = {
    pixKey: '+5561988887777',
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 5_000 },
    refundAddress: REFUND_ADDRESS,
  }
  const q = await rpc(app, 'withdrawals:quote', { draft })
  await rpc(app, 'withdrawals:create', { draft, intentId: q.intent.id })
}

test('a CSV import keeps the good rows and lists the bad ones with their line and reason', async ({
  app,
}) => {
  const { page } = app
  const file = join(tmp, 'favorecidos.csv')
  writeFileSync(
    file,
    '\uFEFFNome;CPF/CNPJ;Chaves Pix;EUID;Observações\r\n' +
      'Maria da Silva;529.982.247-25;email:maria@example.com | telefone:+55 61 98888-7777;;Mensal\r\n' +
      'CPF errado;529.982.247-26;errado@example.com;;\r\n' +
      'Fornecedora;11.222.333/0001-81;financeiro@fornecedora.example;;\r\n' +
      ';;;;\r\n' +
      'Sem chave;390.533.447-05;;;\r\n',
  )
  await nav(page, 'payees')
  app.nextFile(file)
  await page.getByRole('button', { name: 'Importar CSV' }).click()
  const result = page.getByTestId('payee-import-result')
  await expect(result).toContainText('Importação de favorecidos.csv')
  await expect(result.getByTestId('payee-import-count')).toHaveText('2 favorecidos importados.')
  const rejected = result.getByTestId('payee-import-rejected')
  await expect(rejected.locator('li')).toHaveCount(2)
  await expect(rejected.locator('li[data-line="3"]')).toHaveText(
    'Linha 3 (CPF errado): CPF/CNPJ — CPF/CNPJ inválido: confira os dígitos verificadores.',
  )
  await expect(rejected.locator('li[data-line="6"]')).toHaveText(
    'Linha 6 (Sem chave): Chaves Pix — Informe ao menos uma chave Pix.',
  )
  await expect(page.locator('tr[data-payee-id]')).toHaveCount(2)
  await expectNoSeriousAxe(page)
  await app.screenshot('payees-import-pt-BR')

  // A file without the keys column: nothing imported, the missing column named.
  const bad = join(tmp, 'sem-chaves.csv')
  writeFileSync(bad, 'nome;cpf\r\nOutra;39053344705\r\n')
  app.nextFile(bad)
  await page.getByRole('button', { name: 'Importar CSV' }).click()
  await expect(page.getByTestId('import-missing-columns')).toHaveText(
    'Faltam as colunas: Chaves Pix. Nada foi importado.',
  )
  expect((await rpc(app, 'payees:list', {})).total).toBe(2)
})

test('the default refund address is checked once, prefilled, and can be changed per payment', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'settings')
  await page.getByRole('tab', { name: 'Pagamentos e avisos' }).click()
  const section = page.getByTestId('default-refund-section')
  const input = section.getByLabel('Endereço Liquid de devolução padrão')
  await input.fill('lq1qqnotreally')
  await section.getByRole('button', { name: 'Salvar endereço' }).click()
  await expect(section.getByTestId('default-refund-refused')).toBeVisible()
  await expect(input).toHaveValue('lq1qqnotreally')
  await input.fill(REFUND_ADDRESS)
  await section.getByRole('button', { name: 'Salvar endereço' }).click()
  await expect(section.getByTestId('default-refund-current')).toHaveText(REFUND_ADDRESS)
  const audit = app.ctx.ledger
    .audit({ limit: 5 })
    .rows.find((e) => e.action === 'profile.default_refund_address_changed')
  expect(audit?.details).toMatchObject({ from: null, to: REFUND_ADDRESS })

  await nav(page, 'newWithdrawal')
  const refund = page.getByLabel('Endereço Liquid para devolução')
  await expect(refund).toHaveValue(REFUND_ADDRESS)
  await expect(page.getByTestId('refund-default')).toBeVisible()
  await refund.fill('')
  await expect(page.getByTestId('refund-default')).toHaveCount(0)
})
