/**
 * F2 (issue #25): on the team ledger the duplicate guard's 24 h window is decided by the database on the server's
 * clock, the one that stamped every record. A desk whose clock runs 25 h ahead used to look for duplicates only
 * "since 1 h ahead of the server" and re-paid a payment made a minute earlier; one 25 h behind reached back 49 h.
 * Real PostgreSQL cluster, real sandbox; each desk's clock is the service's injectable `now`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { openPgStore, startLeadership, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import type { Cadence } from '../../../src/main/tracking/scheduler'
import {
  createWithdrawalService,
  type WithdrawalService,
  type WithdrawalServiceDeps,
} from '../../../src/main/withdrawals'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../ledger/team'
import { reviewedCreate } from './reviewed'

announceSkip('duplicate window on the server clock (postgres + sandbox)')

const HOUR = 3_600_000

async function until(cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('the team duplicate window is the server’s', () => {
  let team: Team
  let sb: Sandbox
  const clients: DepixClient[] = []
  const services: WithdrawalService[] = []
  const stores: PgLedgerStore[] = []

  beforeAll(async () => {
    team = await startTeam()
    sb = await startSandbox({ port: 0, httpControl: false })
  }, 120_000)
  afterAll(async () => {
    for (const s of services) await s.tracker.stop()
    for (const c of clients) await c.close().catch(() => undefined)
    for (const s of stores) await s.close().catch(() => undefined)
    await sb?.close()
    await team?.stop()
  })

  /** A desk of the team whose wall clock is `offsetMs` off the server's. */
  const desk = async (
    name: string,
    offsetMs: number,
    extra: Partial<WithdrawalServiceDeps> = {},
  ): Promise<{ service: WithdrawalService; statusGets: () => number }> => {
    await team.addAnalyst(name)
    const store = await openPgStore({ connection: team.config(name) })
    stores.push(store)
    const client = createDepixClient({
      baseUrl: sb.baseUrl,
      auth: {
        kind: 'client_credentials',
        clientId: sb.credentials.clientId,
        clientSecret: sb.credentials.clientSecret,
      },
    })
    await client.signIn()
    clients.push(client)
    let gets = 0
    const withdrawStatus = client.withdrawStatus.bind(client)
    client.withdrawStatus = (id) => {
      gets += 1
      return withdrawStatus(id)
    }
    const service = createWithdrawalService({
      store,
      sideJournal: null,
      client,
      operator: name,
      network: 'liquid',
      profile: `desk-${name}`,
      now: () => Date.now() + offsetMs,
      ...extra,
    })
    services.push(service)
    return { service, statusGets: () => gets }
  }

  const draft = (pixKey: string) => ({
    pixKey,
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 10_000 },
    refundAddress: generateLiquidAddress('liquid').address,
  })

  it('a desk 25 h ahead sees the payment another desk made a minute earlier, and its create is refused', async () => {
    const ana = (await desk('ana', 0)).service
    const bia = (await desk('bia', 25 * HOUR)).service
    const d = draft('skew-ahead@example.com')
    // bia reviews first (nothing similar yet), ana pays, then bia confirms: the create's guard must see ana's.
    const early = await bia.quote(d)
    expect(early.duplicates).toEqual([])
    const paid = await reviewedCreate(ana, d)
    await expect(bia.create(d, { intentId: early.intent.id, confirmedDuplicates: [] })).rejects.toMatchObject(
      {
        code: 'duplicate_since_review',
      },
    )
    const q = await bia.quote(d)
    expect(q.duplicates.map((x) => x.localId)).toEqual([paid.localId])
  }, 60_000)

  it('a desk 25 h behind does not reach back 49 h: a payment 30 h old (server clock) is not a duplicate', async () => {
    const caio = (await desk('caio', 0)).service
    const dani = (await desk('dani', -25 * HOUR)).service
    const old = await reviewedCreate(caio, draft('skew-behind@example.com'))
    // The record was made 30 h ago on the server's clock (the owner back-dates it; analysts cannot).
    const owner = await team.owner()
    await owner.query(
      `ALTER TABLE withdrawals DISABLE TRIGGER USER;
       UPDATE withdrawals SET created_at = to_char((clock_timestamp() - interval '30 hours') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') WHERE local_id = '${old.localId}';
       ALTER TABLE withdrawals ENABLE TRIGGER USER;`,
    )
    const q = await dani.quote(draft('skew-behind@example.com'))
    expect(q.duplicates).toEqual([])
  }, 60_000)

  it('F9: a lead 3 h ahead of the server polls a fresh payment at the fresh tier (ages on the server’s clock)', async () => {
    await team.addAnalyst('erin')
    const leadership = startLeadership({ connection: team.config('erin'), retryMs: 500 })
    try {
      await leadership.ready()
      await until(() => leadership.isLeader)
      // Fresh records every 200 ms, anything an hour old only every minute.
      const cadence: Partial<Cadence> = {
        ageTiers: [{ maxAgeMs: HOUR, intervalMs: 200 }],
        oldIntervalMs: 60_000,
        resyncMs: 500,
      }
      const erin = await desk('erin', 3 * HOUR, {
        tracker: { cadence, recordClock: () => leadership.serverNow() ?? Date.now() },
      })
      expect(Math.abs((leadership.serverNow() ?? 0) - Date.now())).toBeLessThan(1_000)
      const rec = await reviewedCreate(erin.service, draft('skew-poll@example.com'))
      const before = erin.statusGets()
      erin.service.tracker.start()
      await until(() => erin.statusGets() >= before + 8, 8_000)
      expect(rec.createdAt).toBeTruthy()
    } finally {
      await leadership.stop()
    }
  }, 60_000)
})
