/**
 * The side journal with the real service, client and sandbox, the ledger's writes failing on purpose (the same
 * path as the tmpfs test in store-failure.test.ts, on any machine), and the journal file itself: padding, torn
 * lines, hostile lines, idempotent replay.
 */
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { LedgerError, openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createWithdrawalService } from '../../../src/main/withdrawals'
import {
  appendSideJournal,
  createdEntry,
  ensureSideJournalReserve,
  readSideJournal,
  replaySideJournal,
  RESERVE_BYTES,
  sideJournalPath,
} from '../../../src/main/withdrawals/side-journal'
import { reviewedCreate } from '../../main/withdrawals/reviewed'
import { draft, rig, tempLedgerFile, type Rig } from './helpers'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c()
})

function diskError(): Error {
  // What node:sqlite throws on SQLITE_IOERR: not a LedgerError.
  return Object.assign(new Error('disk I/O error'), { code: 'ERR_SQLITE_ERROR', errcode: 10 })
}

/** The real ledger, except that storing a create's outcome fails as a broken disk would. */
function failingWrites(ledger: Ledger): Ledger {
  return {
    ...ledger,
    markCreated: () => {
      throw diskError()
    },
    markOutcomeUnknown: () => {
      throw diskError()
    },
  }
}

describe('the answer cannot be stored', () => {
  it('the error carries the id at once; the journal keeps it; the next start writes it as created', async () => {
    const sb: Sandbox = await startSandbox()
    cleanup.push(() => sb.close())
    const { dir, file } = tempLedgerFile()
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    const base = await rig({ sb, file })
    const errors: unknown[] = []
    const broken = createWithdrawalService({
      ledger: failingWrites(base.ledger),
      client: base.client,
      operator: 'ana',
      network: 'liquid',
      profile: 'sandbox',
      tracker: { onError: (e) => errors.push(e) },
    })
    const e = await reviewedCreate(broken, draft()).catch((x: unknown) => x)
    const id = sb.control.state().withdrawals[0]?.id as string
    expect(id).toMatch(/\S/)
    expect(e).toMatchObject({ code: 'ledger_write_failed', withdrawalId: id, reason: 'side_journal' })
    expect((e as Error).message).toContain(id)
    expect(errors.length).toBeGreaterThan(0)
    // In the ledger the record is still `submitting`: both writes failed.
    expect(base.ledger.query().rows.map((r) => r.localState)).toEqual(['submitting'])
    await base.close()

    const next: Rig = await rig({ sb, file })
    cleanup.push(() => next.close())
    const rec = next.ledger.query().rows[0]
    expect(rec).toMatchObject({ localState: 'created', remoteId: id })
    expect(
      next.ledger
        .audit({ subject: rec!.localId })
        .rows.map((a) => a.action)
        .sort(),
    ).toEqual(['withdrawal.created', 'withdrawal.submitting'])
    expect(next.posts()).toBe(1)
  })

  it('a refusal of the ledger itself (id already linked) is not journaled: outcome_unknown with the id', async () => {
    const r = await rig()
    cleanup.push(() => r.close())
    const service = createWithdrawalService({
      ledger: {
        ...r.ledger,
        markCreated: () => {
          throw new LedgerError('duplicate_remote_id', 'withdrawal is already linked')
        },
      },
      client: r.client,
      operator: 'ana',
      network: 'liquid',
      profile: 'sandbox',
    })
    const rec = await reviewedCreate(service, draft({ amount: { kind: 'payout', cents: 2_000 } }))
    expect(rec.localState).toBe('outcome_unknown')
    expect(rec.error).toMatchObject({ kind: 'store_failed' })
    expect(rec.error?.['createdId']).toMatch(/\S/)
    expect(readSideJournal(sideJournalPath(r.file)!).entries).toEqual([])
  })
})

describe('the journal file', () => {
  function setup() {
    const { dir, file } = tempLedgerFile()
    const ledger = openLedger(file)
    cleanup.push(() => {
      ledger.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })
    const journal = sideJournalPath(file) as string
    const submitting = (cents: number) =>
      ledger.insertSubmitting(
        {
          profile: 'sandbox',
          pixKey: 'fulano@example.com',
          amountKind: 'payout',
          amountCents: cents,
          request: { pixKey: 'fulano@example.com', payoutAmountInCents: cents },
        },
        'ana',
      )
    const entry = (localId: string, remoteId: string) =>
      createdEntry(localId, 'sandbox', '2025-03-01T12:00:00.000Z', {
        remoteId,
        createResponse: { withdrawalId: remoteId },
        requestId: 'req-1',
      })
    return { ledger, journal, submitting, entry }
  }

  it('entries go into the padding (the file does not grow) and are fsynced one per line', () => {
    const s = setup()
    ensureSideJournalReserve(s.journal)
    expect(fs.statSync(s.journal).size).toBe(RESERVE_BYTES)
    appendSideJournal(s.journal, s.entry('a', 'wd-a'))
    appendSideJournal(s.journal, s.entry('b', 'wd-b'))
    expect(fs.statSync(s.journal).size).toBe(RESERVE_BYTES)
    const text = fs.readFileSync(s.journal, 'utf8')
    expect(text.split('\n').filter((l) => l !== '')).toHaveLength(2)
    expect(readSideJournal(s.journal).entries.map((e) => e.localId)).toEqual(['a', 'b'])
  })

  it('a torn or hostile line is skipped, counted and kept; valid entries around it still replay', () => {
    const s = setup()
    const a = s.submitting(1_000)
    const b = s.submitting(1_001)
    appendSideJournal(s.journal, s.entry(a.localId, 'wd-a'))
    fs.appendFileSync(s.journal, '{"v":1,"kind":"created","localId":"x","outcome":{"remo\n')
    fs.appendFileSync(
      s.journal,
      `${JSON.stringify({ ...s.entry(b.localId, 'wd-b'), outcome: 'drop table' })}\n`,
    )
    appendSideJournal(s.journal, s.entry(b.localId, 'wd-b'))
    const read = readSideJournal(s.journal)
    expect(read.entries.map((e) => e.outcome.remoteId)).toEqual(['wd-a', 'wd-b'])
    expect(read.invalid).toHaveLength(2)
    const result = replaySideJournal(s.ledger)
    expect(result.applied).toHaveLength(2)
    expect(result.invalidLines).toBe(2)
    expect(s.ledger.get(a.localId)).toMatchObject({ localState: 'created', remoteId: 'wd-a' })
    expect(s.ledger.get(b.localId)).toMatchObject({ localState: 'created', remoteId: 'wd-b' })
    const after = readSideJournal(s.journal)
    expect(after.entries).toEqual([])
    expect(after.invalid).toHaveLength(2)
  })

  it('replay is idempotent, takes outcome_unknown records too, and keeps what the ledger refuses', () => {
    const s = setup()
    const a = s.submitting(1_000)
    const b = s.submitting(1_001)
    const c = s.submitting(1_002)
    s.ledger.markOutcomeUnknown(b.localId, null, 'store_failed')
    s.ledger.markOutcomeUnknown(c.localId, null, 'timeout')
    s.ledger.resolveUnknown(c.localId, { notCreated: true }, 'ana')
    for (const [rec, id] of [
      [a, 'wd-a'],
      [b, 'wd-b'],
      [c, 'wd-c'],
    ] as const) {
      appendSideJournal(s.journal, s.entry(rec.localId, id))
    }
    // Applied twice (a crash between the ledger write and the journal rewrite): the second is a no-op.
    appendSideJournal(s.journal, s.entry(a.localId, 'wd-a'))
    const result = replaySideJournal(s.ledger)
    expect(result.applied.map((e) => e.outcome.remoteId)).toEqual(['wd-a', 'wd-b'])
    expect(result.refused).toEqual([
      { entry: expect.objectContaining({ localId: c.localId }), reason: 'illegal_transition' },
    ])
    expect(s.ledger.get(b.localId)).toMatchObject({ localState: 'created', remoteId: 'wd-b' })
    expect(s.ledger.get(c.localId)?.localState).toBe('not_created')
    expect(readSideJournal(s.journal).entries.map((e) => e.localId)).toEqual([c.localId])
    expect(replaySideJournal(s.ledger).applied).toEqual([])
    expect(
      s.ledger.audit({ subject: a.localId }).rows.filter((x) => x.action === 'withdrawal.created'),
    ).toHaveLength(1)
  })

  it('an in-memory ledger has no journal', () => {
    expect(sideJournalPath(':memory:')).toBeNull()
  })
})
