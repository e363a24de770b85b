/**
 * F2 for top-ups (issue #25): on the team ledger the duplicate window of "Comprar DePix" is bounded by the
 * database on its own clock. A desk whose clock runs 25 h ahead still sees the same amount to the same address
 * topped up a minute earlier by another desk, at review and in the create's guard. Real PostgreSQL, real sandbox;
 * the desk's clock is the service's injectable `now`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { createDepositService, type DepositService } from '../../../src/main/deposits'
import { openPgStore, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import type { DepositDraft } from '../../../src/shared/deposit-draft'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../ledger/team'

announceSkip('top-up duplicate window on the server clock (postgres + sandbox)')

describe.skipIf(PG_SKIP_REASON !== null)('the team top-up duplicate window is the server’s', () => {
  let team: Team
  let sb: Sandbox
  const clients: DepixClient[] = []
  const services: DepositService[] = []
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

  const desk = async (name: string, offsetMs: number): Promise<DepositService> => {
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
    const service = createDepositService({
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

  it('a desk 25 h ahead sees the top-up made a minute earlier, and its create is refused', async () => {
    const ana = await desk('ana', 0)
    const bia = await desk('bia', 25 * 3_600_000)
    const d: DepositDraft = {
      amountCents: 20_000,
      depixAddress: generateLiquidAddress('liquid', { confidential: true }).address,
      endUserTaxNumber: '52998224725',
    }
    const early = await bia.quote(d)
    expect(early.duplicates).toEqual([])
    const q = await ana.quote(d)
    const made = await ana.create(d, { intentId: q.intent.id })
    await expect(bia.create(d, { intentId: early.intent.id })).rejects.toMatchObject({
      code: 'duplicate_since_review',
    })
    expect((await bia.quote(d)).duplicates.map((x) => x.localId)).toEqual([made.localId])
  }, 60_000)
})
