/**
 * Migration 10: a payment made as a run's row is recorded only to the key the row was approved with. The matcher is
 * checked against the app's own parser (every canonical key `parsePixKey` makes of a typed key is accepted, typed
 * with the spreadsheet's masks, cases and Unicode spaces), and refuses keys that differ only by what a looser rule
 * would drop. Then a hostile analyst's psql: an approved in-flight row's amount to another key is refused.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePixKey } from '../../../../../src/shared/pix-key'
import { announceSkip, PG_SKIP_REASON } from '../../../../support/postgres'
import { handRun, insertWithdrawal, psqlAs, sqlstate } from '../../adversary'
import { startTeam, type Team } from '../../team'

announceSkip('migration 10: a run row pays its own Pix key (postgres)')

/** Keys as a spreadsheet may carry them; each is valid for the app's parser. */
const TYPED = [
  'Ana.Souza@Example.COM',
  '\u00a0ana@example.com\u3000',
  '\tfinanceiro+pix@empresa.com.br ',
  '+55 (11) 91234-5678',
  '+55.11.91234.5678',
  '\ufeff+5511912345678\u2009',
  '123.456.789-09',
  ' 12345678909 ',
  '11.222.333/0001-81',
  '12.abc.345/01de-35',
  '12ABC34501DE35',
  '3F2504E0-4F89-41D3-9A0C-0305E82C3301',
  ' 3f2504e0-4f89-41d3-9a0c-0305e82c3301\n',
]

/** [canonical, typed]: what a union of rules, a missing trim or a locale's case folding would let through. */
const NOT_THE_SAME: Array<[string, string]> = [
  ['abc@xcom', 'a.b-c@x.com'],
  ['Ana@example.com', 'Ana@example.com'],
  ['ana@example.com', 'ana@example.co'],
  ['+5511912345679', '+55 (11) 91234-5678'],
  ['5511912345678', '+55 (11) 91234-5678'],
  ['12345678909', '123.456.789-08'],
  ['12ABC34501DE35', '12.ABC.345/01DE-36'],
  ['12ABC34501DE35', '12.abc.345/01dè-35'],
  ['3f2504e0-4f89-41d3-9a0c-0305e82c3301', '3f2504e04f8941d39a0c0305e82c3301'],
  ['', ''],
  ['alvo@example.com', ''],
]

describe.skipIf(PG_SKIP_REASON !== null)('migration 10: a run row pays its own Pix key', () => {
  let team: Team
  let eve: pg.Client
  let bia: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    eve = await psqlAs(team, 'eve')
    bia = await psqlAs(team, 'bia')
  }, 120_000)
  afterAll(async () => {
    for (const c of [eve, bia]) await c?.end().catch(() => undefined)
    await team?.stop()
  })

  const matches = async (canonical: string | null, typed: string | null): Promise<boolean> =>
    (await eve.query('SELECT run_pix_key_matches($1, $2) AS ok', [canonical, typed])).rows[0]?.ok === true

  it('accepts exactly the canonical key the app’s parser makes of each typed key', async () => {
    for (const typed of TYPED) {
      const parsed = parsePixKey(typed)
      expect(parsed.ok, typed).toBe(true)
      const key = (parsed as { key: string }).key
      expect(await matches(key, typed), JSON.stringify(typed)).toBe(true)
      expect(await matches(`${key}0`, typed), JSON.stringify(typed)).toBe(false)
    }
  })

  it('refuses keys that differ from the typed one by more than the parser’s own steps', async () => {
    for (const [canonical, typed] of NOT_THE_SAME)
      expect(await matches(canonical, typed), JSON.stringify([canonical, typed])).toBe(false)
    expect(await matches(null, 'ana@example.com')).toBe(false)
    expect(await matches('ana@example.com', null)).toBe(false)
  })

  it('an approved row in flight: its amount to another key, or a body naming another key, is refused', async () => {
    const runId = randomUUID()
    const typed = ' Alvo@Example.com '
    // Through the run functions (migration 16: her prompt writes runs no other way).
    await handRun.insert(eve, runId, 1)
    await handRun.insertRow(
      eve,
      runId,
      0,
      JSON.stringify({ pixKey: typed, amount: { kind: 'payout', cents: 40_000 }, refundAddress: 'x' }),
    )
    const hash = 'ab'.repeat(32)
    await handRun.requestApproval(eve, runId, hash)
    await handRun.setState(bia, runId, 'approved', hash)
    await handRun.setState(eve, runId, 'creating')
    const localId = randomUUID()
    await handRun.changeRow(eve, runId, 0, { state: 'queued', wave: 1 })
    await eve.query('SELECT * FROM run_lease_claim($1, 60000)', [runId])
    await handRun.changeRow(eve, runId, 0, { state: 'in_flight', localId })
    const pay = (o: { pixKey: string; requestPixKey?: string }): Promise<string> =>
      sqlstate(insertWithdrawal(eve, { localId, cents: 40_000, ...o }))
    expect(await pay({ pixKey: 'eve@example.com' })).toBe('DPX02')
    expect(await pay({ pixKey: 'alvo@example.com', requestPixKey: 'eve@example.com' })).toBe('DPX02')
    expect(await pay({ pixKey: 'eve@example.com', requestPixKey: 'alvo@example.com' })).toBe('DPX02')
    // What the app records for that row: the parser's key, in the record and in the body.
    expect(await pay({ pixKey: (parsePixKey(typed) as { key: string }).key })).toBe('ok')
  })
})
