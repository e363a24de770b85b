/**
 * The team's clocks in the renderer (issue #25), on the real main and a throwaway PostgreSQL cluster: a desk whose
 * clock runs 3 h ahead of the team server's says so in the top bar, in pt-BR, and withdraws the notice once its
 * clock agrees again; Configurações names the desk that tracks the team's statuses and its last heartbeat. The
 * desk's clock is stepped where main reads it (Date.now of the test process, which runs main); the server's is real.
 */
import { onToday } from '../support/app-fixture'
import { expect, test } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { foreignWords } from './rendered-language'

test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

const HOUR = 3_600_000

test.describe('team clocks', () => {
  test.setTimeout(150_000)
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('a desk 3 h ahead of the server is told so in the top bar; Configurações says who tracks', async ({
    app,
  }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
    await expect(page.getByTestId('clock-skew')).toHaveCount(0)

    const realNow = Date.now.bind(Date)
    Date.now = () => realNow() + 3 * HOUR
    try {
      // Measured on the lead's next round trip, unless its sleep check (every second) sees the jump first and it
      // steps down: then on taking the lease again, a lease and a retry later (about 20 s).
      await expect(page.getByTestId('clock-skew')).toHaveText(
        'O relógio deste computador está 3 h adiantado em relação ao servidor da equipe: acerte a hora.',
        { timeout: 45_000 },
      )
      expect(await foreignWords(page, 'pt-BR')).toEqual([])
      await app.screenshot('team-clock-skew-pt-BR')
    } finally {
      Date.now = realNow
    }
    // The offset is measured again on the leadership's next round trips; a desk that stepped down after the jump
    // measures it when it takes the lease again (about one lease later), so allow that long.
    await expect(page.getByTestId('clock-skew')).toHaveCount(0, { timeout: 45_000 })
    // A 3 h jump of the wall clock looks like a 3 h sleep: the desk stepped down and leads again after one lease.
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader', { timeout: 30_000 })

    await page.getByRole('navigation').getByRole('button', { name: 'Configurações' }).click()
    const lead = page.getByTestId('team-lead')
    await expect(lead).toHaveAttribute('data-lapsed', 'false')
    await expect(lead).toContainText(
      /Este computador acompanha as situações dos pagamentos da equipe \(último sinal há \d+ s\)\./,
    )
    expect(await foreignWords(page, 'pt-BR')).toEqual([])
  })
})
