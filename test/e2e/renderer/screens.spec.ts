/**
 * Every page, in pt-BR and en, at 1024×700, 1280×800 and 1920×1080, into test-results/screens/: what a
 * treasury analyst sees. Each page is also checked by axe (no serious or critical violation) and, at the first
 * size (1024×700), for words of the other language or raw codes outside "Detalhes técnicos" and for text clipped or
 * spilling out of its box (issue #26).
 */
import type { Page } from '@playwright/test'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { expect, test, type TestApp } from '../support/app-fixture'
import {
  createWithdrawal,
  expectNoSeriousAxe,
  fundAndSettle,
  REFUND_ADDRESS,
  seedLedger,
  setLanguage,
} from './records-helpers'
import { clippedText } from './clipping'
import { foreignWords } from './rendered-language'

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const

interface Seeded {
  paid: WithdrawalRecord
  refunded: WithdrawalRecord
  awaiting: WithdrawalRecord
}

async function seed(app: TestApp): Promise<Seeded> {
  const paid = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'fornecedor@example.com', cents: 123_456 }),
    'sent',
  )
  const refunded = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'chave.errada@example.com', cents: 15_000 }),
    'invalid_pix_key',
  )
  const awaiting = await createWithdrawal(app, { pixKey: 'aguardando@example.com', cents: 98_765 })
  // The payee book has someone to show.
  await app.ctx.router.handle('payees:create', {
    name: 'Fornecedora Exemplo Ltda',
    taxNumber: '11.222.333/0001-81',
    pixKeys: [{ key: 'fornecedor@example.com' }, { key: '+5561988887777' }],
    notes: 'Vencimento dia 10',
  })
  return { paid, refunded, awaiting }
}

type Visit = (page: Page) => Promise<void>

function pages(s: Seeded): Array<[string, Visit]> {
  const nav = (id: string) => async (page: Page) => {
    await page.getByTestId(`nav-${id}`).click()
  }
  const detail = (r: WithdrawalRecord) => async (page: Page) => {
    await page.getByTestId('nav-withdrawals').click()
    await page.locator(`tr[data-local-id="${r.localId}"]`).click()
    await expect(page.getByTestId('lead')).toBeVisible()
  }
  return [
    [
      'today',
      async (page) => {
        await nav('today')(page)
        await expect(page.getByTestId('today-totals')).toBeVisible()
      },
    ],
    ['new-payment', nav('newWithdrawal')],
    [
      'new-payment-review',
      async (page) => {
        await nav('newWithdrawal')(page)
        // The draft (and its review step) survives navigation: from the second size on it is already shown.
        if ((await page.getByTestId('lead-sentence').count()) > 0) return
        await page.locator('#pixKey').fill('fornecedor@example.com')
        await page.locator('#taxNumber').fill('52998224725')
        const amount = page.locator('#amountCents')
        await amount.fill('')
        await amount.pressSequentially('45678')
        await page.locator('#refundAddress').fill(REFUND_ADDRESS)
        await page.locator('form button[type="submit"]').click()
        await expect(page.getByTestId('lead-sentence')).toBeVisible()
      },
    ],
    [
      'list',
      async (page) => {
        await nav('withdrawals')(page)
        await expect(page.locator('tbody tr.vtable-row:not(.vtable-loading)').first()).toBeVisible()
      },
    ],
    [
      'payees',
      async (page) => {
        await nav('payees')(page)
        await expect(page.getByTestId('payees-table')).toBeVisible()
      },
    ],
    ['detail-paid', detail(s.paid)],
    ['detail-refunded', detail(s.refunded)],
    [
      'funding',
      async (page) => {
        await nav('today')(page)
        await page.getByTestId('today-awaiting').locator(`[data-local-id="${s.awaiting.localId}"]`).click()
        await expect(page.getByTestId('deposit-address')).toBeVisible()
      },
    ],
    ['export', nav('records')],
    ['offline-review', nav('review')],
    ['settings', nav('settings')],
    ['sandbox-tools', nav('sandbox')],
    // Issue #17: the top-up form and the list of purchases (with reconciliation, export and the payer's limit).
    ['buy-depix', nav('buyDepix')],
    ['deposits', nav('deposits')],
    // Issue #26: the runs page (import with the pt-BR file picker, the list as a table).
    ['runs', nav('runs')],
  ]
}

test.use({
  appOptions: {
    language: 'pt-BR',
    sandbox: {},
    // Older records of every status, so the list and the totals have rows.
    beforeOpen: (file) => seedLedger(file, 40),
    trackerAutoStart: false,
    startPage: 'today',
  },
})

for (const lang of ['pt-BR', 'en'] as const) {
  test(`every page in ${lang} at three sizes: screenshots, axe, no words of the other language`, async ({
    app,
  }) => {
    test.setTimeout(480_000)
    const { page } = app
    const seeded = await seed(app)
    const foreign: Record<string, string[]> = {}
    const clipped: Record<string, string[]> = {}
    if (lang === 'en') await setLanguage(page, 'en')
    for (const [name, visit] of pages(seeded)) {
      for (const [i, size] of SIZES.entries()) {
        await page.setViewportSize(size)
        await visit(page)
        await page.waitForTimeout(100)
        if (i === 0) {
          const words = await foreignWords(page, lang)
          if (words.length > 0) foreign[name] = words
          const cut = await clippedText(page)
          if (cut.length > 0) clipped[name] = cut
          await expectNoSeriousAxe(page)
        }
        await app.screenshot(`screens-${name}-${lang}-${size.width}x${size.height}`)
      }
    }
    expect(foreign).toEqual({})
    expect(clipped).toEqual({})
  })
}
