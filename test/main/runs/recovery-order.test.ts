/**
 * The run recovery waits for the records' own recovery when told to (`recordsReady`, what a team runtime passes:
 * its side journal replayed first), because a row in flight is judged by whether its record exists. SQLite
 * in memory stands in for the stores; the order is the service's, whatever the engine.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createRunService, NO_PAYEES, type RunService } from '../../../src/main/runs'
import type { ImportedRow } from '../../../src/shared/run'

const REFUND = generateLiquidAddress('liquid').address
const row = (i: number): ImportedRow => ({
  line: i + 2,
  draft: {
    pixKey: `r${i}@example.com`,
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents: 1_000 },
    refundAddress: REFUND,
  },
  payee: { kind: 'blank', payeeId: null, name: null },
  refundFromProfile: false,
  duplicate: null,
  warnings: [],
})

function interrupted() {
  const ledger = openLedger(':memory:')
  const run = ledger.runs.create({ profile: 'p', name: 'lote', rows: [row(0)] }, 'ana')
  ledger.runs.setState(run.runId, ['draft'], 'approved', 'ana', 'run.approved', {}, { hash: 'ab'.repeat(32) })
  ledger.runs.startWave(run.runId, 1, [0], 'ana')
  const localId = randomUUID()
  ledger.runs.changeRow(run.runId, 0, ['queued'], { state: 'in_flight', localId }, 'ana', 'run.row_in_flight')
  return { ledger, runId: run.runId, localId }
}

const service = (ledger: ReturnType<typeof openLedger>, recordsReady?: Promise<unknown>): RunService =>
  createRunService({
    ledger,
    operator: 'ana',
    payees: NO_PAYEES,
    runtime: () => {
      throw new Error('not used by recovery')
    },
    ...(recordsReady ? { recordsReady } : {}),
  })

describe('run recovery after the records', () => {
  it('waits for recordsReady: a record that appears meanwhile makes the row submitted, not sent again', async () => {
    const { ledger, runId, localId } = interrupted()
    let release: () => void = () => undefined
    const s = service(ledger, new Promise<void>((r) => (release = r)))
    await new Promise((r) => setTimeout(r, 50))
    expect(ledger.runs.get(runId)?.state).toBe('creating')
    // What the records' recovery does first (a journaled create put in).
    ledger.insertSubmitting(
      {
        localId,
        profile: 'p',
        request: {},
        pixKey: 'r0@example.com',
        amountKind: 'payout',
        amountCents: 1_000,
      },
      'ana',
    )
    release()
    await s.ready()
    expect(ledger.runs.get(runId)?.state).toBe('paused')
    expect(ledger.runs.row(runId, 0)).toMatchObject({ state: 'submitted', localId })
    ledger.close()
  })

  it('a failed records recovery does not stop the run recovery', async () => {
    const { ledger, runId } = interrupted()
    const s = service(ledger, Promise.reject(new Error('journal unreadable')))
    await s.ready()
    expect(ledger.runs.get(runId)?.state).toBe('paused')
    expect(ledger.runs.row(runId, 0)).toMatchObject({ state: 'queued', localId: null })
    ledger.close()
  })
})
