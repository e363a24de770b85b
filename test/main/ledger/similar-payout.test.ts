/**
 * Issue #25 F1: the duplicate guard compares what the payee receives, on both engines. Desk A pays R$ 100,00 as
 * "Valor do Pix"; desk B types the same key with "DePix a enviar 101,02" (R$ 100,00 after the 1 % fee): the guard
 * shows A's payment and refuses to insert B's without a confirmation; one cent either way is another payment. On PostgreSQL the two desks' creates race and exactly one wins.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type NewWithdrawal } from '../../../src/main/ledger/sqlite'
import { sqliteStore, type LedgerStore } from '../../../src/main/ledger/engines'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

const RATE = 100
const since = '2000-01-01T00:00:00.000Z'
const CPF = '52998224725'

interface Desks {
  a: LedgerStore
  b: LedgerStore
  done(): Promise<void>
}

const engines: Array<{ name: string; open(): Promise<Desks> }> = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'similar-payout-'))
      const store = sqliteStore(openLedger(path.join(dir, 'ledger.sqlite')))
      return {
        a: store,
        b: store,
        done: async () => {
          await store.close()
          fs.rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
]
announceSkip('duplicate guard by payout (postgres)')
if (!PG_SKIP_REASON) {
  let team: Team | null = null
  engines.push({
    name: 'postgres',
    open: async () => {
      team = await startTeam()
      return { a: await team.desk('ana'), b: await team.desk('bia'), done: async () => team?.stop() }
    },
  })
}

function input(pixKey: string, kind: 'payout' | 'deposit', cents: number, tax = CPF): NewWithdrawal {
  const amount = kind === 'payout' ? { payoutAmountInCents: cents } : { depositAmountInCents: cents }
  return {
    localId: randomUUID(),
    profile: 'team',
    request: { pixKey, taxNumber: tax, ...amount },
    pixKey,
    amountKind: kind,
    amountCents: cents,
  }
}

const guard = { sinceIso: since, partnerRateBps: RATE }

describe.each(engines)('duplicate guard by payout on $name', (engine) => {
  let d: Desks
  beforeAll(async () => {
    d = await engine.open()
  }, 120_000)
  afterAll(async () => d?.done())

  it('"Valor do Pix R$ 100,00" and "DePix a enviar 101,02" are the same payment', async () => {
    const key = `${randomUUID()}@example.com`
    const first = await d.a.createGuarded(input(key, 'payout', 10_000), 'ana', guard)
    expect(first.kind).toBe('inserted')
    const id = first.kind === 'inserted' ? first.record.localId : ''
    const second = await d.b.createGuarded(input(key.toUpperCase(), 'deposit', 10_102), 'bia', guard)
    expect(second.kind).toBe('duplicate')
    expect(second.kind === 'duplicate' ? second.similar.map((r) => r.localId) : []).toEqual([id])
    // The lookup the review shows, from either side.
    const q = { pixKey: key, sinceIso: since, partnerRateBps: RATE }
    expect((await d.b.findRecentSimilar({ ...q, amountKind: 'deposit', amountCents: 10_102 })).length).toBe(1)
    // One cent more or less paid out is another payment (10 101 and 10 103 DePix pay 99,99 and 100,01).
    expect(await d.b.findRecentSimilar({ ...q, amountKind: 'deposit', amountCents: 10_101 })).toEqual([])
    expect(await d.b.findRecentSimilar({ ...q, amountKind: 'deposit', amountCents: 10_103 })).toEqual([])
    expect(await d.b.findRecentSimilar({ ...q, amountKind: 'payout', amountCents: 10_001 })).toEqual([])
  })

  it('the deposit typed first is found by the payout typed later', async () => {
    const key = `${randomUUID()}@example.com`
    expect((await d.a.createGuarded(input(key, 'deposit', 50_505), 'ana', guard)).kind).toBe('inserted')
    // 505,05 DePix at 1 %: fee 5,06, payout 499,99.
    expect((await d.b.createGuarded(input(key, 'payout', 49_999), 'bia', guard)).kind).toBe('duplicate')
    expect((await d.b.createGuarded(input(key, 'payout', 50_000), 'bia', guard)).kind).toBe('inserted')
  })

  it('a Pix key matches whatever its case; another key with the same payout does not', async () => {
    const key = `${randomUUID()}@Example.com`
    expect((await d.a.createGuarded(input(key, 'payout', 777_00), 'ana', guard)).kind).toBe('inserted')
    // 784,85 DePix at 1 %: fee 7,85, payout 777,00.
    expect((await d.b.createGuarded(input(key.toLowerCase(), 'deposit', 78_485), 'bia', guard)).kind).toBe(
      'duplicate',
    )
    expect(
      (await d.b.createGuarded(input(`${randomUUID()}@example.com`, 'payout', 777_00), 'bia', guard)).kind,
    ).toBe('inserted')
  })

  it('two desks creating the same payout in different amount kinds at once: exactly one is inserted', async () => {
    for (let round = 0; round < 10; round++) {
      const key = `${randomUUID()}@example.com`
      const r = await Promise.all([
        d.a.createGuarded(input(key, 'payout', 10_000), 'ana', guard),
        d.b.createGuarded(input(key, 'deposit', 10_102), 'bia', guard),
      ])
      expect(r.map((x) => x.kind).sort()).toEqual(['duplicate', 'inserted'])
    }
  })
})
