/**
 * A team desk recovers its interrupted payment runs when its profile opens (app/runs-handlers.ts, on the runtime's
 * open), as one desk does at start-up — not on the first `runs:*` call — and only the runs whose wave its own role
 * was creating. The recovery waits for the payments' own (side journal replayed first), so a row in flight is
 * judged by its record as the journal left it. Real cluster, sandbox and app contexts (team-rig.ts).
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamSideJournal } from '../../../src/main/app/runtime'
import { appendSideJournal } from '../../../src/main/journal/side-journal'
import { openPgStore } from '../../../src/main/ledger/engines'
import { pgRunStore } from '../../../src/main/ledger/pg/run-store'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startDesks, until, type Desk, type DeskRig, type Result } from './team-rig'

announceSkip('team runs recovered at profile open (postgres + sandbox + app contexts)')

const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'
const csv = (keys: readonly string[]): string =>
  Buffer.from(
    [
      HEADER,
      ...keys.map((k, i) => `Fornecedor ${i};${k};52998224725;40,${String(i).padStart(2, '0')};${REFUND}`),
    ].join('\r\n'),
    'utf8',
  ).toString('base64')

const ok = <T>(r: Result): T => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`)
  return r.data as T
}

describe.skipIf(PG_SKIP_REASON !== null)('team runs recovered when the profile opens', () => {
  let rig: DeskRig
  let owner: pg.Client
  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob'])
    owner = await rig.team.owner()
  }, 120_000)
  afterAll(async () => rig?.stop())

  const runState = async (runId: string): Promise<string> =>
    String((await owner.query('SELECT state FROM runs WHERE run_id = $1', [runId])).rows[0]?.state)
  const reopen = async (d: Desk): Promise<void> => {
    ok(await d.call('profiles:select', { id: d.profileId }))
  }

  it("re-opening the profile recovers this role's interrupted run at once; another desk's open leaves it", async () => {
    const [alice, bob] = rig.desks as [Desk, Desk]
    const keys = [`open-0-${randomUUID()}@example.com`, `open-1-${randomUUID()}@example.com`]
    const imported = ok<{ runId: string }>(
      await alice.call('runs:import', { name: 'lote.csv', contentBase64: csv(keys) }),
    )
    const runId = imported.runId
    const detail = ok<{ summary: { payoutCents: number } }>(await alice.call('runs:get', { runId }))
    ok(await alice.call('runs:approve', { runId, confirmPayoutCents: detail.summary.payoutCents }))

    // Alice's desk "dies" mid-wave as alice's role: row 0 in flight, its record inserted (submitting) and the
    // service's answer only in alice's side journal; row 1 still queued.
    const store = await openPgStore({ connection: rig.team.config('alice') })
    const localId = randomUUID()
    try {
      const runs = pgRunStore(store.pool, store.identity)
      await runs.startWave(runId, 1, [0, 1], 'alice')
      // As the desk's wave does: a row goes into flight only under the run's lease (migration 13).
      expect((await runs.leases!.claim(runId, 60_000)).mine).toBe(true)
      await runs.changeRow(
        runId,
        0,
        ['queued'],
        { state: 'in_flight', localId },
        'alice',
        'run.row_in_flight',
      )
      await store.insertSubmitting(
        {
          localId,
          profile: alice.profileId,
          request: { pixKey: keys[0], payoutAmountInCents: 4_000 },
          pixKey: keys[0]!,
          amountKind: 'payout',
          amountCents: 4_000,
        },
        'alice',
      )
    } finally {
      await store.close()
    }
    appendSideJournal(teamSideJournal(alice.dir, alice.profileId), {
      v: 1,
      kind: 'created',
      localId,
      profile: alice.profileId,
      at: new Date().toISOString(),
      outcome: { remoteId: `w-${randomUUID()}`, createResponse: null, requestId: null },
    })

    // Bob's desk opens again: not its wave (alice's desk may be mid-POST), so the run stays as it is.
    await reopen(bob)
    await new Promise((r) => setTimeout(r, 500))
    expect(await runState(runId)).toBe('creating')

    // Alice's desk opens again and recovers it without any runs:* call.
    await reopen(alice)
    await until('the run paused by the open', async () =>
      (await runState(runId)) === 'paused' ? true : undefined,
    )
    const rows = await owner.query(
      'SELECT idx, state, local_id FROM run_rows WHERE run_id = $1 ORDER BY idx',
      [runId],
    )
    expect(rows.rows).toEqual([
      { idx: 0, state: 'submitted', local_id: localId },
      { idx: 1, state: 'queued', local_id: null },
    ])
    // Judged after the journal's answer went in: the record was already created, not left submitting.
    const recovered = await owner.query(
      `SELECT operator, details FROM audit_log WHERE subject = $1 AND action = 'run.row_recovered'`,
      [`${runId}#0`],
    )
    expect(recovered.rows).toHaveLength(1)
    expect(recovered.rows[0]?.operator).toBe('alice')
    expect(JSON.parse(String(recovered.rows[0]?.details))).toMatchObject({ localState: 'created' })
    const interrupted = await owner.query(
      `SELECT operator FROM audit_log WHERE subject = $1 AND action = 'run.interrupted'`,
      [runId],
    )
    expect(interrupted.rows).toEqual([{ operator: 'alice' }])
    // The renderer was told (run:changed) without asking.
    await until('run:changed on alice', async () =>
      alice.events.some((e) => e.event === 'run:changed' && (e.payload as { runId: string }).runId === runId)
        ? true
        : undefined,
    )
  }, 60_000)
})
