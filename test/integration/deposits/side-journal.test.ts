/**
 * The side journal for deposits: when the ledger cannot store a create's answer (writes failing as a broken disk
 * would), the operator's error names the deposit id at once, the answer is kept in the shared side journal as a
 * deposit entry, and the next start writes it into the ledger as created — the same mechanism as withdrawals.
 */
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createDepositService } from '../../../src/main/deposits'
import { readSideJournal, sideJournalPath } from '../../../src/main/journal/side-journal'
import type { Ledger } from '../../../src/main/ledger/sqlite'
import { startSandbox } from '../../../src/main/sandbox'
import { depositDraft, depositRig, reviewedDeposit, tempLedgerFile } from './helpers'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c()
})

const diskError = (): Error =>
  Object.assign(new Error('disk I/O error'), { code: 'ERR_SQLITE_ERROR', errcode: 10 })

function failingWrites(ledger: Ledger): Ledger {
  return {
    ...ledger,
    deposits: {
      ...ledger.deposits,
      markCreated: () => {
        throw diskError()
      },
      markOutcomeUnknown: () => {
        throw diskError()
      },
    },
  }
}

describe('a deposit whose answer cannot be stored', () => {
  it('names the id at once, keeps it in the side journal, and the next start writes it as created', async () => {
    const sb = await startSandbox()
    cleanup.push(() => sb.close())
    const { dir, file } = tempLedgerFile()
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    const base = await depositRig({ sb, file })
    const broken = createDepositService({
      ledger: failingWrites(base.ledger),
      client: base.client,
      operator: 'ana',
      network: 'liquid',
      profile: 'sandbox',
    })
    const e = await reviewedDeposit(broken, depositDraft()).catch((x: unknown) => x)
    const id = sb.control.state().deposits[0]?.qrId as string
    expect(id).toMatch(/\S/)
    expect(e).toMatchObject({ code: 'ledger_write_failed', depositId: id, reason: 'side_journal' })
    expect((e as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toContain(
      `A compra de DePix ${id} FOI CRIADA`,
    )
    const journal = readSideJournal(sideJournalPath(file) as string)
    expect(journal.entries).toEqual([
      expect.objectContaining({ record: 'deposit', outcome: expect.objectContaining({ remoteId: id }) }),
    ])
    expect(base.ledger.deposits.query().rows.map((r) => r.localState)).toEqual(['submitting'])
    await broken.stop()
    await base.close()

    const next = await depositRig({ sb, file })
    cleanup.push(() => next.close())
    const rec = next.ledger.deposits.query().rows[0]
    expect(rec).toMatchObject({ localState: 'created', remoteId: id })
    expect(next.ledger.audit({ subject: rec?.localId }).rows[0]?.details).toMatchObject({
      replayed: 'side_journal',
    })
    expect(readSideJournal(sideJournalPath(file) as string).entries).toEqual([])
    expect(sb.control.requestCounts()['POST /api/deposit']).toBe(1)
  })
})
