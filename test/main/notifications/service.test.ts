/**
 * Desktop notifications through the port under Node, against a real ledger file: which events notify, once
 * each (even after reopening the ledger, i.e. a restart), masked keys, the off switch and a broken port.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import {
  createNotificationService,
  DEADLINE_WARNING_MS,
  maskPixKey,
  type DesktopNotification,
} from '../../../src/main/notifications'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

const T0 = Date.parse('2026-01-10T12:00:00.000Z')
let dir: string
let ledger: Ledger
const shown: DesktopNotification[] = []
const opened: string[] = []
let enabled = true
let now = T0

const service = (l: Ledger, show?: (n: DesktopNotification, click: () => void) => void) =>
  createNotificationService({
    ledger: l,
    port: {
      supported: () => true,
      show:
        show ??
        ((n, click) => {
          shown.push(n)
          click()
        }),
    },
    enabled: () => enabled,
    locale: () => 'pt-BR',
    open: (id) => opened.push(id),
    now: () => now,
  })

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'notifications-'))
  ledger = openLedger(join(dir, 'ledger.sqlite'), { now: () => now })
  shown.length = 0
  opened.length = 0
  enabled = true
  now = T0
})
afterEach(() => {
  ledger.close()
  rmSync(dir, { recursive: true, force: true })
})

function record(over: Partial<WithdrawalRecord>): WithdrawalRecord {
  return {
    localId: 'rec-1',
    profile: 'sandbox',
    operator: 'op',
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    localState: 'created',
    request: {},
    pixKey: 'fulano.de.tal@example.com',
    amountKind: 'deposit',
    amountCents: 123_456,
    createResponse: null,
    remoteId: 'r1',
    remoteStatus: 'unsent',
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    depositAddress: null,
    depositAmountCents: 123_456,
    payoutAmountCents: 123_456,
    expiration: new Date(T0 + 30 * 60_000).toISOString(),
    fundedAt: null,
    fundingTxId: null,
    refund: null,
    receiverName: null,
    error: null,
    requestId: null,
    flags: [],
    ...over,
  }
}

describe('notification service', () => {
  it('payout made: once, amount in BRL, key masked; the click opens the record', () => {
    const s = service(ledger)
    s.onRecord(record({ remoteStatus: 'sent' }))
    s.onRecord(record({ remoteStatus: 'sent' }))
    expect(shown).toEqual([{ title: 'Pagamento efetuado', body: expect.stringContaining('R$ 1.234,56') }])
    expect(shown[0]?.body).not.toContain('fulano.de.tal@example.com')
    expect(shown[0]?.body).toContain(maskPixKey('fulano.de.tal@example.com'))
    expect(opened).toEqual(['rec-1'])
  })

  it('is not repeated after a restart (the key is in the ledger)', () => {
    service(ledger).onRecord(record({ remoteStatus: 'sent' }))
    ledger.close()
    ledger = openLedger(join(dir, 'ledger.sqlite'), { now: () => now })
    service(ledger).onRecord(record({ remoteStatus: 'sent' }))
    expect(shown).toHaveLength(1)
  })

  it('returned (a refund wins over the status), outcome unknown, and the deadline within 10 minutes', () => {
    const s = service(ledger)
    s.onRecord(record({ localId: 'a', remoteStatus: 'sent', refund: { txId: 't', amountInCents: 1 } }))
    s.onRecord(record({ localId: 'b', localState: 'outcome_unknown', remoteId: null, remoteStatus: null }))
    s.onRecord(record({ localId: 'c' })) // 30 minutes left: nothing yet
    now = T0 + 30 * 60_000 - DEADLINE_WARNING_MS + 1
    s.onRecord(record({ localId: 'c' }))
    s.onRecord(record({ localId: 'd', fundedAt: new Date(T0).toISOString() })) // funded: no deadline warning
    expect(shown.map((n) => n.title)).toEqual([
      'Pagamento devolvido',
      'Resultado desconhecido',
      'Prazo do depósito terminando',
    ])
  })

  it('the off switch shows nothing and claims nothing (turning it on later still notifies)', () => {
    const s = service(ledger)
    enabled = false
    s.onRecord(record({ remoteStatus: 'sent' }))
    expect(shown).toHaveLength(0)
    enabled = true
    s.onRecord(record({ remoteStatus: 'sent' }))
    expect(shown).toHaveLength(1)
  })

  it('a port that throws never breaks the caller', () => {
    const s = service(ledger, () => {
      throw new Error('OS said no')
    })
    expect(() => s.onRecord(record({ remoteStatus: 'sent' }))).not.toThrow()
  })

  it('maskPixKey never shows more than 5 characters of a key', () => {
    expect(maskPixKey('12345678901')).toBe('123******01')
    expect(maskPixKey('abc')).toBe('***')
    expect(maskPixKey('123e4567-e89b-12d3-a456-426614174000')).not.toContain('e89b')
  })
})
