/**
 * A payment run with the keyboard only (issue #26): Tab to "Lotes", the file picker opened with Space, the run
 * just imported takes the focus, Tab to the control total, Enter approves, and the confirmation that replaces the
 * form takes the focus. Every stop shows a focus ring. Nothing is sent by approving.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onToday, test } from '../support/app-fixture'
import { expectVisibleFocus, tabTo } from './keyboard'
import { expectNoSeriousAxe } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'

test('import → review → approve a run using only Tab, Shift+Tab, Space and Enter', async ({ app }) => {
  const { page, sandbox } = app
  const kb = page.keyboard
  const refund = refundAddressFor(app)
  const lines = [
    HEADER,
    `Papelaria Central;papelaria@example.com;${CPF};150,00;${refund}`,
    `Transportes Rápidos;transportes@example.com;${CPF};250,00;${refund}`,
    `Limpeza Total;limpeza@example.com;${CPF};100,00;${refund}`,
  ]
  const dir = mkdtempSync(join(tmpdir(), 'keyboard-run-'))
  const file = join(dir, 'lote-teclado.csv')
  writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`)
  const posts = (): number => sandbox.control.requestCounts()['POST /api/withdraw'] ?? 0
  try {
    await tabTo(page, page.getByTestId('nav-runs'))
    await expectVisibleFocus(page)
    await kb.press('Enter')
    await expect(page.getByRole('heading', { level: 2, name: 'Lotes de pagamentos' })).toBeVisible()

    // The file picker: reached by Tab, its ring on the button the analyst sees, opened with Space.
    await tabTo(page, page.getByTestId('run-file'))
    await expectVisibleFocus(page)
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), kb.press('Space')])
    await chooser.setFiles(file)
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    // The focus lands on the run just imported, not back at the top of the page.
    await expect(page.getByTestId('run-heading')).toBeFocused()
    await expect(page.getByTestId('run-heading')).toContainText('lote-teclado.csv')
    await expectVisibleFocus(page)
    await expect(page.getByTestId('run-count')).toHaveText('3')

    // Review by reading on: the next stops are the review's own (addresses, totals), then the control total.
    const total = page.getByTestId('run-approve-total')
    await tabTo(page, total)
    await expectVisibleFocus(page)
    // A wrong total first: refused, the field keeps what was typed and the focus.
    await kb.type('400,00')
    await kb.press('Enter')
    await expect(page.getByRole('alert')).toContainText('não confere com o total')
    await expect(total).toBeFocused()
    await expect(total).toHaveValue('400,00')
    await kb.press('Control+A')
    await kb.type('500,00')
    await kb.press('Enter')
    await expect(detail).toHaveAttribute('data-state', 'approved')
    // The form is gone; its confirmation has the focus, and the next Tab goes on to the waves.
    const approved = page.getByTestId('run-approved')
    await expect(approved).toBeFocused()
    await expectVisibleFocus(page)
    await kb.press('Tab')
    expect(
      await page.evaluate(() => document.activeElement?.closest('[data-testid="run-detail"]') !== null),
    ).toBe(true)
    expect(posts()).toBe(0)
    await expectNoSeriousAxe(page)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
