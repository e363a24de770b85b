/**
 * A payment run on the team ledger in the renderer (issue #16, t16runs), on the real main: a throwaway PostgreSQL
 * cluster, the embedded sandbox, desk A (bruno) is the page, desk B (ana) a colleague driven through its router
 * (support/team-desks.ts). Three rows of R$ 400,00: none above the team's R$ 1.000,00 limit, their total is — the
 * four-eyes rule counts the total, so splitting a payment into rows does not escape it. Desk A imports and asks;
 * the page says it waits for another analyst and offers no approval to desk A; desk B approves; desk A's page hears
 * it (LISTEN/NOTIFY → `run:changed`); the wave sends each row once, counted at the sandbox.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { RunDetailView } from '../../../src/shared/channels-runs'
import type { IpcResult } from '../../../src/shared/contract'
import type { RunRecord } from '../../../src/shared/run'
import { formatBRL } from '../../../src/shared/money'
import { onToday } from '../support/app-fixture'
import { DESK_A, DESK_B, expect, postsAt, test } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { expectNoSeriousAxe } from './records-helpers'
import { foreignWords } from './rendered-language'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    // The wave's pace follows the sandbox's create allowance: raised so three rows take no minute.
    sandbox: { rateLimits: { withdraw: 600 } },
  }),
})

const HEADER =
  'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução'
const KEYS = ['obra1@example.com', 'obra2@example.com', 'obra3@example.com']
const ROW_CENTS = 40_000

/** A call from the page's own window, past what the screen offers (as a tampered renderer would). */
const invokeFromPage = (page: Page, channel: string, input: unknown): Promise<IpcResult<unknown>> =>
  page.evaluate(
    ([c, i]) =>
      (
        window as unknown as { treasury: { invoke: (c: string, i: unknown) => Promise<unknown> } }
      ).treasury.invoke(c as string, i) as Promise<IpcResult<unknown>>,
    [channel, input] as const,
  )

/** pt-BR words only, and no raw code (`approval_self`, `awaiting_funding`…) outside "Detalhes técnicos". */
async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
  const prose = await page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement
    for (const el of root.querySelectorAll('[data-technical], code, .mono, script, style')) el.remove()
    return root.innerText || root.textContent || ''
  })
  expect(prose.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []).toEqual([])
}

test.describe('a payment run on the team ledger, two desks', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('above the team limit by its total: asked on desk A, not approvable there, approved on desk B, the page hears it, each row sent once', async ({
    app,
    colleague,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
    const refund = refundAddressFor(app)
    const total = KEYS.reduce((sum) => sum + ROW_CENTS, 0)
    const lines = [
      HEADER,
      ...KEYS.map((k, i) => `Fornecedor ${i + 1};${k};${CPF};400,00;Obras;Sede;${refund}`),
    ]
    const dir = mkdtempSync(join(tmpdir(), 'team-runs-e2e-'))
    const file = join(dir, 'lote-equipe.csv')
    writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`)
    const posts0 = postsAt(app)
    try {
      await page.getByTestId('nav-runs').click()
      await expect(page.getByRole('heading', { level: 2, name: 'Lotes de pagamentos' })).toBeVisible()
      await page.getByTestId('run-file').setInputFiles(file)
      const detail = page.getByTestId('run-detail')
      await expect(detail).toHaveAttribute('data-state', 'draft')
      await expect(page.getByTestId('run-count')).toHaveText('3')

      // The screen says before the click that approving here only asks.
      await expect(page.getByTestId('run-approval-needed')).toHaveText(
        'Este lote passa do limite da equipe (uma linha ou o total): ao aprovar, ele fica aguardando a aprovação de outro analista, e as linhas não mudam mais.',
      )
      const form = page.getByTestId('approve-form')
      await expect(form.getByRole('button', { name: 'Aprovar lote' })).toHaveCount(0)
      await form
        .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
        .fill(formatBRL(total).replace('R$ ', ''))
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
      await form.getByRole('button', { name: 'Pedir aprovação' }).click()

      // Waiting for someone else: the words say so, and desk A has no way to approve it on the screen.
      await expect(page.getByTestId('run-approval-waiting')).toHaveText(
        `Aguardando a aprovação de outro analista (pedida por ${DESK_A}). Quem pediu não pode aprovar.`,
      )
      await expect(page.getByTestId('approve-form')).toHaveCount(0)
      await expect(detail).toHaveAttribute('data-state', 'draft')
      await expect(page.getByRole('button', { name: 'Criar onda' })).toHaveCount(0)
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
      const listed = await colleague.ok<RunRecord[]>('runs:list')
      expect(listed.map((r) => r.name)).toEqual(['lote-equipe.csv'])
      const runId = listed[0]!.runId

      // Forced past the screen, main (the database's DPX03) refuses desk A, in pt-BR, and sends nothing.
      const self = await invokeFromPage(page, 'runs:approve', { runId, confirmPayoutCents: total })
      expect(self).toMatchObject({ ok: false, error: { code: 'approval_self' } })
      expect(self.ok ? '' : (self.error.userMessage?.['pt-BR'] ?? '')).toMatch(/outro analista/)
      const early = await invokeFromPage(page, 'runs:startWave', { runId })
      expect(early.ok).toBe(false)
      expect(postsAt(app)).toBe(posts0)

      // Desk B sees who asked, and approves by typing the same total.
      const onB = await colleague.ok<RunDetailView>('runs:get', { runId })
      expect(onB.approval).toMatchObject({ needed: true, requestedBy: DESK_A, mine: false })
      const approved = await colleague.ok<RunDetailView>('runs:approve', {
        runId,
        confirmPayoutCents: total,
      })
      expect(approved.run).toMatchObject({ state: 'approved', approvedBy: DESK_B })

      // The page hears it without a click (LISTEN depix_runs → run:changed) and names the approver.
      await expect(detail).toHaveAttribute('data-state', 'approved')
      await expect(page.getByTestId('run-approved')).toContainText(`Aprovado por ${DESK_B} em`)
      await expect(page.getByTestId('run-approval-waiting')).toHaveCount(0)
      await expect(page.getByTestId('run-state')).toHaveText('Aprovado')
      expect(postsAt(app)).toBe(posts0)
      await expectPtBR(page)

      // One wave of the three rows from desk A: one POST per row, once.
      await page.getByLabel('Pagamentos nesta onda').fill('3')
      await page.getByRole('button', { name: 'Criar onda' }).click()
      await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 60_000 })
      expect(postsAt(app)).toBe(posts0 + 3)
      const sheet = page.getByTestId('funding-sheet')
      await expect(sheet.getByTestId('sheet-lines').locator('tbody tr')).toHaveCount(3)
      await expectNoSeriousAxe(page)
      await sheet.getByRole('button', { name: 'Sandbox: depositar a onda inteira' }).click()
      await sheet.getByRole('button', { name: 'Onda depositada' }).click()
      await expect(detail).toHaveAttribute('data-state', 'completed')

      // Nothing more to send, from either desk; the sandbox holds one withdrawal per key.
      expect((await colleague.call('runs:startWave', { runId })).ok).toBe(false)
      expect((await invokeFromPage(page, 'runs:startWave', { runId })).ok).toBe(false)
      expect(postsAt(app)).toBe(posts0 + 3)
      const sent = app.sandbox.control.state().withdrawals.map((w) => w.pixKey)
      expect([...sent].sort()).toEqual(KEYS)
      // Desk B's list has the three rows' payments: the team's record, not desk A's alone.
      await expect
        .poll(async () => (await colleague.ok<{ total: number }>('withdrawals:list', {})).total)
        .toBe(3)
      await expectPtBR(page)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
