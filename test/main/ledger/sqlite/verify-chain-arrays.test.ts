/**
 * The chain walk and the records' check read rows as arrays where node:sqlite can (verify-chain.ts): the verdict,
 * reason and seq must be exactly those of the object rows it read before, on an intact ledger and on every kind of
 * edit, and a record's problem must still name the record.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { verifyChain } from '../../../../src/main/ledger/sqlite/verify-chain'
import { newWithdrawal, tempLedger } from './helpers'

type ReadDb = Parameters<typeof verifyChain>[0]

/** The file's verdict read with array rows (as the app does) and with object rows (no setReturnArrays). */
function verdicts(file: string): { arrays: unknown; objects: unknown } {
  const raw = new DatabaseSync(file, { readOnly: true })
  try {
    const withArrays: ReadDb = { stmt: (sql) => raw.prepare(sql), fresh: (sql) => raw.prepare(sql) }
    const withoutArrays: ReadDb = {
      stmt: (sql) => raw.prepare(sql),
      fresh: (sql) => {
        const st = raw.prepare(sql)
        return new Proxy(st, {
          get: (t, k) => {
            if (k === 'setReturnArrays') return undefined
            const v = Reflect.get(t, k) as unknown
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v
          },
        }) as StatementSync
      },
    }
    return { arrays: verifyChain(withArrays), objects: verifyChain(withoutArrays) }
  } finally {
    raw.close()
  }
}

function sql(file: string, text: string): void {
  const db = new DatabaseSync(file)
  db.exec(text)
  db.close()
}

function ledgerWithRecords(): string {
  const { ledger, file } = tempLedger()
  for (const id of ['w1', 'w2', 'w3']) {
    const rec = ledger.insertSubmitting(newWithdrawal({ localId: id }), 'ana')
    ledger.markCreated(rec.localId, {
      remoteId: `wd-${id}`,
      createResponse: { id: `wd-${id}` },
      requestId: id,
    })
    ledger.recordObservation(id, { status: 'pending', body: { status: 'pending', b: [1, { a: 'é' }] } })
  }
  return file
}

describe('verifyChain with array rows', () => {
  it('node:sqlite here has array rows (else this file tests one path twice)', () => {
    const raw = new DatabaseSync(':memory:')
    expect(typeof raw.prepare('SELECT 1').setReturnArrays).toBe('function')
    raw.close()
  })

  it('an intact ledger verifies the same both ways', () => {
    const { arrays, objects } = verdicts(ledgerWithRecords())
    expect(arrays).toEqual({ ok: true, rows: 9 })
    expect(objects).toEqual(arrays)
  })

  it('an edited record, a broken JSON column, an edited entry: the same verdict both ways', () => {
    const cases: Array<[string, string, unknown]> = [
      [
        'record edited',
        "UPDATE withdrawals SET amount_cents = 999999 WHERE local_id = 'w2'",
        {
          ok: false,
          brokenAt: 6,
          reason: 'record w2 differs from the state its last audit entry (seq 6) recorded',
        },
      ],
      [
        'JSON column broken',
        "UPDATE withdrawals SET last_remote = '{not json' WHERE local_id = 'w3'",
        { ok: false, brokenAt: 0, reason: 'record w3: a JSON column is not valid JSON' },
      ],
      [
        'entry details edited',
        `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET details = '{"x":1}' WHERE seq = 4`,
        { ok: false, brokenAt: 4, reason: 'hash does not match the row contents' },
      ],
      [
        'entry state hash edited',
        `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET state_hash = '${'0'.repeat(64)}' WHERE seq = 2`,
        { ok: false, brokenAt: 2, reason: 'hash does not match the row contents' },
      ],
    ]
    for (const [what, edit, want] of cases) {
      const file = ledgerWithRecords()
      sql(file, edit)
      const { arrays, objects } = verdicts(file)
      expect({ what, verdict: arrays }).toEqual({ what, verdict: want })
      expect({ what, verdict: objects }).toEqual({ what, verdict: want })
    }
  })
})
