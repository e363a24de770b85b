/**
 * F2 (issue #25): on the team ledger the duplicate guard's 24 h window is decided by the database on the server's
 * clock, the one that stamped every record. A desk whose clock runs 25 h ahead used to look for duplicates only
 * "since 1 h ahead of the server" and re-paid a payment made a minute earlier; one 25 h behind reached back 49 h.
 * Real PostgreSQL cluster, real sandbox; each desk's clock is the service's injectable `now`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { openPgStore, type PgLedgerStore } from '../../../src/main/ledger-store'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../ledger-store/team'
import { reviewedCreate } from './reviewed'

announceSkip('duplicate window on the server clock (postgres + sandbox)')

const HOUR = 3_600_000

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
  const desk = async (name: string, offsetMs: number): Promise<WithdrawalService> => {
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
    const service = createWithdrawalService({
      store,
      sideJournal: null,
      client,
      operator: name,
      network: 'liquid',
      profile: `desk-${name}`,
      now: () => Date.now() + offsetMs,
    })
    services.push(service)
    return service
  }

  const draft = (pixKey: string) => ({
    pixKey,
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 10_000 },
    refundAddress: generateLiquidAddress('liquid').address,
  })

  it('a desk 25 h ahead sees the payment another desk made a minute earlier, and its create is refused', async () => {
    const ana = await desk('ana', 0)
    const bia = await desk('bia', 25 * HOUR)
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
    const caio = await desk('caio', 0)
    const dani = await desk('dani', -25 * HOUR)
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
})
