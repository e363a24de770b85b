/**
 * The team ledger's trust in the renderer (issue #16, t16exrc and t16export), on the real main: a throwaway
 * PostgreSQL cluster, the embedded sandbox, desk A (bruno) is the page, desk B (ana) a colleague driven through its
 * router (support/team-desks.ts).
 * - The team's chain edited by the owner with plain SQL before desk A opens: the banner speaks of the team's
 *   database and whoever runs it — never of a backup of this computer — on every page, and the export is refused.
 * - A team export from the page holds both desks' payments, verifies intact with desk A's key (not desk B's), and
 *   the offline review of that folder matches the team ledger.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { verifyExport } from '../../../src/main/records'
import type { AppContext } from '../../../src/main/app/context'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { DESK_B, expect, test as desks } from '../support/team-desks'
import { TEAM_SKIP_REASON, type Team } from '../support/team-server'
import { cpf, createWithdrawal, expectNoSeriousAxe, openNav, REFUND_ADDRESS } from './records-helpers'
import { foreignWords } from './rendered-language'

const TEAM_BROKEN =
  'A trilha de auditoria do livro-caixa da equipe não confere: o banco de dados da equipe foi alterado fora do aplicativo. Exportações estão bloqueadas.'
const TEAM_ACTION =
  'Avise o responsável pelo banco de dados da equipe antes de qualquer novo pagamento; a correção é feita no servidor, não neste computador.'

async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
}

async function fingerprintOf(ctx: AppContext): Promise<string> {
  const r = await ctx.router.handle('records:publicKey', undefined)
  if (!r.ok) throw new Error('no signing key')
  return (r.data as { fingerprint: string }).fingerprint
}

let tmp: string
desks.beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'team-ledger-check-'))
})
desks.afterEach(() => rmSync(tmp, { recursive: true, force: true }))

/** Desk B's payment in the team ledger, then the owner's edit of it: all before the page's desk opens. */
const tampered = desks.extend<{ team: Team; editedId: string }>({
  editedId: [
    async ({ team }, use) => {
      const store = await team.desk(DESK_B)
      const rec = await store.insertSubmitting(
        {
          localId: randomUUID(),
          profile: 'sandbox',
          pixKey: 'maria@example.com',
          amountKind: 'payout',
          amountCents: 10_000,
          request: { pixKey: 'maria@example.com', payoutAmountInCents: 10_000 },
        },
        DESK_B,
      )
      await store.markRejected(rec.localId, {
        kind: 'business',
        status: 520,
        messageCode: 'INVALID_PARAMETER',
        denialCode: null,
        requestId: 'req',
        message: 'x',
      })
      await store.close()
      const owner = await team.owner()
      await owner.query('UPDATE withdrawals SET amount_cents = amount_cents + 100 WHERE local_id = $1', [
        rec.localId,
      ])
      await use(rec.localId)
    },
    { timeout: 60_000 },
  ],
  // The page's app (desk A) opens only after the edit.
  teamLedgerFor: async ({ teamLedgerFor, editedId }, use) => {
    expect(editedId).toBeTruthy()
    await use(teamLedgerFor)
  },
})

tampered.describe('the team chain edited on the server before this desk opens', () => {
  tampered.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  tampered(
    'the banner names the team’s database and whoever runs it, no backup advice; the export is refused',
    async ({ app, editedId }) => {
      const { page } = app
      await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
      const banner = page.getByTestId('integrity-banner')
      await expect(banner).toHaveAttribute('data-ledger', 'team')
      await expect(banner.locator('.alert-title')).toHaveText(TEAM_BROKEN)
      await expect(banner).toContainText(TEAM_ACTION)
      // The record the owner edited is named in the technical reason.
      await expect(banner.locator('code')).toContainText(editedId)
      await expect(banner).not.toContainText(/backup|Restaure|Configurações/i)
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
      await app.screenshot('team-integrity-banner-pt-BR')

      // On every page; and "Exportações estão bloqueadas" holds: the export is refused, the folder stays empty.
      await openNav(page, 'Exportar registros')
      await expect(banner).toHaveAttribute('data-ledger', 'team')
      app.nextDirectory(tmp)
      await page.getByRole('button', { name: 'Exportar…' }).click()
      const refused = page.locator('[role="alert"][data-error-code="audit_chain_broken"]')
      await expect(refused).toContainText('livro-caixa da equipe não confere')
      await expect(refused).not.toContainText(/backup/i)
      await expect(page.getByTestId('export-result')).toHaveCount(0)
      expect(readdirSync(tmp)).toEqual([])
      // The verifier's English reason, naming the record, only under "Detalhes técnicos".
      await expect(refused).not.toContainText(editedId)
      await expect(page.getByTestId('export-failure-reason')).toContainText(editedId)
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
      await openNav(page, 'Configurações')
      await expect(banner.locator('.alert-title')).toHaveText(TEAM_BROKEN)
    },
  )
})

desks.describe('a team export from the page', () => {
  desks.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  desks(
    'holds both desks’ payments, verifies intact with this desk’s key, and matches the team ledger in the review',
    async ({ app, colleague }) => {
      const { page } = app
      await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
      await expect(page.getByTestId('integrity-banner')).toHaveCount(0)
      const mine = await createWithdrawal(app, { pixKey: 'mesa-a@example.com', cents: 12_500 })
      const draft = {
        pixKey: 'mesa-b@example.com',
        taxNumber: cpf('529982247'),
        amount: { kind: 'payout', cents: 33_000 },
        refundAddress: REFUND_ADDRESS,
      } as const
      const q = await colleague.ok<{ intent: { id: string } }>('withdrawals:quote', { draft })
      const theirs = await colleague.ok<WithdrawalRecord>('withdrawals:create', {
        draft,
        intentId: q.intent.id,
      })

      await openNav(page, 'Exportar registros')
      await expect(page.getByTestId('match-count')).toHaveText('2 registros correspondem ao filtro.')
      const mineKey = await fingerprintOf(app.ctx)
      await expect(page.getByTestId('export-signing')).toContainText(mineKey)
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
      app.nextDirectory(tmp)
      await page.getByRole('button', { name: 'Exportar…' }).click()
      await expect(page.getByTestId('export-result')).toContainText('Exportação concluída: 2 registros.')
      const manifestPath = (await page.getByTestId('manifest-path').textContent()) ?? ''
      const folder = dirname(manifestPath)

      // Intact, signed by desk A's key and not by desk B's; both desks' payments are in it.
      const ok = await verifyExport(manifestPath, { expectFingerprint: mineKey })
      expect(ok.problems).toEqual([])
      expect(ok.ok).toBe(true)
      const wrongKey = await verifyExport(manifestPath, {
        expectFingerprint: await fingerprintOf(colleague.ctx),
      })
      expect(wrongKey.ok).toBe(false)
      const records = JSON.parse(readFileSync(join(folder, 'records.json'), 'utf8')) as {
        records: Array<{ localId: string }>
      }
      expect(records.records.map((r) => r.localId).sort()).toEqual([mine.localId, theirs.localId].sort())
      // The trail attributes each creation to the role that made it, as the database recorded it.
      const audit = readFileSync(join(folder, 'audit.jsonl'), 'utf8')
      expect(audit).toContain(`"operator":"${DESK_B}"`)
      for (const f of readdirSync(folder)) expect(readFileSync(join(folder, f), 'utf8')).not.toContain('-pw')

      // The offline review of that folder, checked against the team ledger in the team's words.
      await page.getByTestId('export-result').getByRole('button', { name: 'Abrir a revisão offline' }).click()
      app.nextDirectory(folder)
      await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
      await expect(page.getByTestId('review-verified')).toContainText('Verificação OK')
      await expect(page.getByTestId('records-count')).toHaveText('2 registros')
      await page.getByRole('button', { name: 'Conferir com o livro-caixa da equipe' }).click()
      const check = page.getByTestId('ledger-check')
      await expect(check).toHaveAttribute('data-verdict', 'match')
      await expect(check.locator('.alert-title')).toContainText('Confere com o livro-caixa da equipe.')
      await expect(
        page.getByRole('button', { name: 'Conferir com o livro-caixa deste computador' }),
      ).toHaveCount(0)
      await expectPtBR(page)
      await expectNoSeriousAxe(page)
    },
  )
})
