/**
 * Every page, in pt-BR and en, at 1024×700, 1280×800 and 1920×1080, into test-results/screens/: what a
 * treasury analyst sees. Each page is also checked by axe (no serious or critical violation) and, at the first
 * size (1024×700), for words of the other language or raw codes outside "Detalhes técnicos" and for text clipped or
 * spilling out of its box (issue #26). States: Hoje with its cards, the payment form and its review, the list, a
 * paid, a refunded and a payee-mismatch detail, the funding page, Favorecidos, Exportar, the offline review,
 * Configurações (each tab), Caixa, Ferramentas do Sandbox, Comprar DePix, Compras de DePix, Lotes, a run in
 * review (one row's refund address not the profile's default: marked), a run's wave waiting for its deposit (the
 * funding sheet) and the list with the run's payments in its Lote column, a paid payment's detail in each of its
 * tabs, a top-up waiting for its Pix and one refused with the service's reason. Team-only screens — Aprovações with a payment and a run waiting, and the run asked for approval (its refund
 * address not one the team registered: marked) — on a team desk (support/team-desks.ts: a throwaway PostgreSQL
 * cluster, desk B asks, the page is desk A), the same way below; their flows are in team-run-approvals.spec.ts and
 * approvals.spec.ts; a run with 0 of 20 paid and a refused top-up in dates.spec.ts. On a live profile (screens-seed.ts's
 * seedLive), the review of a payment above the desk's confirmation limit, its amount not yet typed and mistyped.
 *
 * Text clipped without its whole value on hover is checked at every size (the list's columns change at 1,200 px);
 * the other language's words and axe at 1024×700 (they do not depend on the width).
 */
import type { Page } from '@playwright/test'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { expect, onToday, test, type TestApp } from '../support/app-fixture'
import { expectNoSeriousAxe, REFUND_ADDRESS, seedLedger, setLanguage } from './records-helpers'
import { DESK_B, test as teamTest, type Colleague } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { clippedText, wrappedMoney } from './clipping'
import { foreignWords } from './rendered-language'
import { CPF, refundAddressFor } from './withdrawal-steps'
import { seed, seedLive, WAVE_RUN, type Seeded } from './screens-seed'

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const

type Visit = (page: Page) => Promise<void>

/**
 * "Novo pagamento" at its review step for a payout of `cents` to `pixKey`. The draft (and its review step) survives
 * navigation: from the second visit on it is already shown.
 */
async function paymentInReview(page: Page, pixKey: string, cents: string): Promise<void> {
  await page.getByTestId('nav-newWithdrawal').click()
  if ((await page.getByTestId('lead-sentence').count()) > 0) return
  await page.locator('#pixKey').fill(pixKey)
  await page.locator('#taxNumber').fill('52998224725')
  const amount = page.locator('#amountCents')
  await amount.fill('')
  await amount.pressSequentially(cents)
  await page.locator('#refundAddress').fill(REFUND_ADDRESS)
  await page.locator('form button[type="submit"]').click()
  await expect(page.getByTestId('lead-sentence')).toBeVisible()
}

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
    ['new-payment-review', (page) => paymentInReview(page, 'fornecedor@example.com', '45678')],
    [
      'list',
      async (page) => {
        await nav('withdrawals')(page)
        await expect(page.locator('tbody tr.vtable-row:not(.vtable-loading)').first()).toBeVisible()
        // The newest rows are the run's: its name in the Lote column, NF and centro de custo at every width.
        const grafica = page.locator('tbody tr[data-local-id]', { hasText: 'Gráfica Aurora Ltda' })
        await expect(grafica.locator('td[data-col="run"]')).toContainText(WAVE_RUN)
        await expect(grafica).toContainText('NF-e 10293')
        await expect(grafica).toContainText('MKT-03')
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
    // Issue #26: the detail's secondary sections are tabs; each one a screen.
    ...(['payout', 'receipt', 'timeline', 'technical'] as const).map((tab): [string, Visit] => [
      `detail-paid-${tab}`,
      async (page) => {
        await detail(s.paid)(page)
        const chosen = page.getByTestId('detail-more').locator(`[role="tab"][data-tab="${tab}"]`)
        await chosen.click()
        await expect(chosen).toHaveAttribute('aria-selected', 'true')
        await expect(page.locator(`[role="tabpanel"][data-panel="${tab}"]`)).toBeVisible()
      },
    ]),
    ['detail-refunded', detail(s.refunded)],
    // Issue #26: the problem first — "Favorecido diferente do cadastro" with the reported name.
    ['detail-mismatch', detail(s.mismatch)],
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
    // Issue #26: Configurações in tabs, each one a screen.
    [
      'settings-payments',
      async (page) => {
        await nav('settings')(page)
        await page.getByRole('tab').nth(1).click()
        await expect(page.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true')
      },
    ],
    [
      'settings-security',
      async (page) => {
        await nav('settings')(page)
        await page.getByRole('tab').nth(2).click()
        await expect(page.getByRole('tab').nth(2)).toHaveAttribute('aria-selected', 'true')
      },
    ],
    ['caixa', nav('caixa')],
    ['sandbox-tools', nav('sandbox')],
    // Issue #17: the top-up form and the list of purchases (with reconciliation, export and the payer's limit).
    ['buy-depix', nav('buyDepix')],
    ['deposits', nav('deposits')],
    // Issue #26: a top-up's page — waiting for the Pix, and refused with the service's reason in words.
    ...(
      [
        ['deposit-detail', s.topUp, 'deposit-qr'],
        ['deposit-refused', s.refusedTopUp, 'deposit-refusal'],
      ] as const
    ).map(([name, localId, shown]): [string, Visit] => [
      name,
      async (page) => {
        await nav('deposits')(page)
        await page
          .locator(`[data-testid="deposit-row"][data-local-id="${localId}"]`)
          .getByRole('button')
          .click()
        await expect(page.getByTestId(shown)).toBeVisible()
      },
    ]),
    // Issue #26: the runs page (import with the pt-BR file picker, the list as a table).
    ['runs', nav('runs')],
    [
      'run-review',
      async (page) => {
        await nav('runs')(page)
        await page.getByTestId('runs-list').getByRole('button', { name: 'folha-dezembro.csv' }).click()
        await expect(page.getByTestId('run-detail')).toHaveAttribute('data-state', 'draft')
        await expect(page.getByTestId('run-heading')).toContainText('folha-dezembro.csv')
        await expect(page.getByTestId('run-refund-unregistered')).toHaveCount(1)
      },
    ],
    [
      'run-wave-funding',
      async (page) => {
        await nav('runs')(page)
        await page.getByTestId('runs-list').getByRole('button', { name: WAVE_RUN }).click()
        await expect(page.getByTestId('run-detail')).toHaveAttribute('data-state', 'awaiting_funding')
        await expect(page.getByTestId('funding-sheet')).toBeVisible()
        await expect(page.getByTestId('sheet-countdown')).toHaveAttribute('data-state', 'running')
        await expect(page.getByTestId('run-waves').locator('tbody tr')).toHaveCount(1)
      },
    ],
  ]
}

test.use({
  appOptions: onToday({
    // Older records of every status, so the list and the totals have rows.
    beforeOpen: (file) => seedLedger(file, 40),
    trackerAutoStart: false,
  }),
})

/**
 * Each page at the three sizes: a screenshot each, and at 1024×700 the words of the other language, text clipped
 * or money wrapped, and axe. Returns the pages with foreign words and with clipped text.
 */
async function shoot(
  app: TestApp,
  lang: 'pt-BR' | 'en',
  visits: Array<[string, Visit]>,
): Promise<{ foreign: Record<string, string[]>; clipped: Record<string, string[]> }> {
  const { page } = app
  const foreign: Record<string, string[]> = {}
  const clipped: Record<string, string[]> = {}
  for (const [name, visit] of visits) {
    for (const [i, size] of SIZES.entries()) {
      await page.setViewportSize(size)
      await visit(page)
      await page.waitForTimeout(100)
      const cut = [...(await clippedText(page)), ...(await wrappedMoney(page))]
      if (cut.length > 0) clipped[`${name} ${size.width}x${size.height}`] = cut
      if (i === 0) {
        const words = await foreignWords(page, lang)
        if (words.length > 0) foreign[name] = words
        await expectNoSeriousAxe(page)
      }
      await app.screenshot(`screens-${name}-${lang}-${size.width}x${size.height}`)
    }
  }
  return { foreign, clipped }
}

for (const lang of ['pt-BR', 'en'] as const) {
  test(`every page in ${lang} at three sizes: screenshots, axe, no words of the other language`, async ({
    app,
  }) => {
    test.setTimeout(480_000)
    const { page } = app
    const seeded = await seed(app)
    if (lang === 'en') await setLanguage(page, 'en')
    const { foreign, clipped } = await shoot(app, lang, pages(seeded))
    expect(foreign).toEqual({})
    expect(clipped).toEqual({})
  })
}

/**
 * A live payment above the desk's confirmation limit (issue #26; its flow in today-desk.spec.ts): the review with
 * the field to type the amount again, empty and with another amount typed (the mismatch said beside the field).
 */
function livePages(): Array<[string, Visit]> {
  const confirmation =
    (typed: string): Visit =>
    async (page) => {
      await paymentInReview(page, 'grande@example.com', '543210')
      const confirm = page.getByTestId('desk-confirmation')
      await confirm.getByTestId('desk-confirmation-amount').fill(typed)
      await expect(confirm.locator('.field-error')).toHaveCount(typed === '' ? 0 : 1)
    }
  return [
    ['live-confirmation', confirmation('')],
    ['live-confirmation-mismatch', confirmation('5.432,99')],
  ]
}

for (const lang of ['pt-BR', 'en'] as const) {
  test.describe(`live profile in ${lang}`, () => {
    test.use({
      appOptions: {
        language: lang,
        sandbox: {},
        beforeOpen: null,
        trackerAutoStart: false,
        startPage: 'today',
      },
    })
    test(`the desk's confirmation of a large live payment in ${lang} at three sizes: screenshots, axe, no words of the other language`, async ({
      app,
    }) => {
      test.setTimeout(240_000)
      await seedLive(app)
      const { foreign, clipped } = await shoot(app, lang, livePages())
      expect(foreign).toEqual({})
      expect(clipped).toEqual({})
    })
  })
}

const RUN_NAME = 'folha-obras.csv'

/** Desk B asks for a payment above the team's limit and for a run's approval: desk A's queue has both. */
async function seedTeam(app: TestApp, colleague: Colleague): Promise<void> {
  const refundAddress = refundAddressFor(app)
  await colleague.request(
    {
      pixKey: 'aluguel@example.com',
      taxNumber: CPF,
      amount: { kind: 'payout', cents: 320_000 },
      refundAddress,
    },
    'Aluguel de novembro',
  )
  const lines = [
    'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução',
    ...[1, 2, 3].map((i) => `Fornecedor ${i};fila${i}@example.com;${CPF};400,00;${refundAddress}`),
  ]
  const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
  const { runId } = (await colleague.ok('runs:import', { name: RUN_NAME, contentBase64 })) as {
    runId: string
  }
  await colleague.ok('runs:approve', { runId, confirmPayoutCents: 120_000 })
}

function teamPages(): Array<[string, Visit]> {
  const approvals: Visit = async (page) => {
    await page.getByTestId('nav-approvals').click()
    await expect(page.getByTestId('approval-card')).toHaveCount(1)
    await expect(page.getByTestId('run-approval-card')).toHaveCount(1)
  }
  return [
    ['approvals', approvals],
    [
      'run-awaiting-approval',
      async (page) => {
        await approvals(page)
        await page.getByTestId('run-approval-card').getByRole('button').first().click()
        await expect(page.getByTestId('run-detail')).toHaveAttribute('data-state', 'draft')
        await expect(page.getByTestId('run-approval-asked')).toContainText(DESK_B)
        await expect(page.getByTestId('approve-form')).toBeVisible()
        // The rows' refund address is not one the team registered: marked beside their lines.
        await expect(page.getByTestId('run-refund-unregistered')).toBeVisible()
      },
    ],
  ]
}

for (const lang of ['pt-BR', 'en'] as const) {
  teamTest.describe(`team desk in ${lang}`, () => {
    teamTest.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')
    teamTest.use({
      appOptions: {
        language: lang,
        sandbox: {},
        beforeOpen: null,
        trackerAutoStart: true,
        startPage: 'today',
      },
    })

    teamTest(
      `Aprovações and a run waiting for approval in ${lang} at three sizes: screenshots, axe, no words of the other language`,
      async ({ app, colleague }) => {
        teamTest.setTimeout(240_000)
        await expect(app.page.getByTestId('team-status')).toBeVisible()
        await seedTeam(app, colleague)
        const { foreign, clipped } = await shoot(app, lang, teamPages())
        expect(foreign).toEqual({})
        expect(clipped).toEqual({})
      },
    )
  })
}
