/**
 * The withdrawal service on the team ledger (a real PostgreSQL cluster) and a real sandbox: the server goes away
 * between the committed `submitting` record and the API's answer. The POST is not resent, the created id reaches
 * the operator at once, the answer is kept in the profile's local side journal (the team ledger has no file
 * beside it), and the next start on this profile writes it into the team ledger as created.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { teamSideJournal } from '../../../src/main/app/runtime'
import { openPgStore } from '../../../src/main/ledger/engines'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'
import { readSideJournal } from '../../../src/main/withdrawals/side-journal'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../ledger/team'
import { reviewedCreate } from './reviewed'

announceSkip('withdrawals on the team store (postgres + sandbox)')

const PROFILE = 'team-profile-1'

describe.skipIf(PG_SKIP_REASON !== null)('withdrawal service on the team ledger', () => {
  let team: Team
  let sb: Sandbox
  let dir: string
  const clients: DepixClient[] = []
  const services: WithdrawalService[] = []

  const client = async (): Promise<DepixClient> => {
    const c = createDepixClient({
      baseUrl: sb.baseUrl,
      auth: {
        kind: 'client_credentials',
        clientId: sb.credentials.clientId,
        clientSecret: sb.credentials.clientSecret,
      },
    })
    await c.signIn()
    clients.push(c)
    return c
  }

  beforeAll(async () => {
    team = await startTeam()
    sb = await startSandbox({ port: 0, httpControl: false })
    dir = mkdtempSync(join(tmpdir(), 'team-store-'))
  }, 120_000)

  afterAll(async () => {
    for (const s of services) await s.tracker.stop()
    for (const c of clients) await c.close().catch(() => undefined)
    await sb?.close()
    await team?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('server gone after the journal: no resend, the id is told at once, the next start stores it', async () => {
    await team.addAnalyst('erin')
    const sideJournal = teamSideJournal(dir, PROFILE)
    const store = await openPgStore({ connection: team.config('erin') })
    const c = await client()
    let posts = 0
    const withdraw = c.withdraw.bind(c)
    c.withdraw = (body) => {
      posts += 1
      return withdraw(body)
    }
    const service = createWithdrawalService({
      store,
      sideJournal,
      client: c,
      operator: 'erin',
      network: 'liquid',
      profile: PROFILE,
      // Right after `submitting` is committed, before the POST: the team server stops.
      beforePost: () => team.cluster.stopServer(),
    })
    services.push(service)
    const draft = {
      pixKey: 'side-journal@example.com',
      taxNumber: '52998224725',
      amount: { kind: 'payout' as const, cents: 2_500 },
      refundAddress: generateLiquidAddress('liquid').address,
    }
    let e: unknown
    try {
      await reviewedCreate(service, draft)
    } catch (x) {
      e = x
    } finally {
      team.cluster.startServer()
    }
    expect(posts).toBe(1)
    expect(e).toMatchObject({ code: 'ledger_write_failed', reason: 'side_journal' })
    const createdId = (e as { withdrawalId: string }).withdrawalId
    expect(createdId).toBeTruthy()
    expect((e as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toContain(createdId)
    const kept = readSideJournal(sideJournal).entries
    expect(kept.map((x) => [x.profile, x.outcome.remoteId])).toEqual([[PROFILE, createdId]])
    await store.close().catch(() => undefined)

    // The next start on this profile: a new store, a new service; its recovery replays the side journal.
    const again = await openPgStore({ connection: team.config('erin') })
    const next = createWithdrawalService({
      store: again,
      sideJournal,
      client: await client(),
      operator: 'erin',
      network: 'liquid',
      profile: PROFILE,
    })
    services.push(next)
    const localId = kept[0]!.localId
    let rec: WithdrawalRecord | undefined
    for (let i = 0; i < 100; i++) {
      rec = await again.get(localId)
      if (rec?.localState === 'created') break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(rec).toMatchObject({ localState: 'created', remoteId: createdId })
    expect(readSideJournal(sideJournal).entries).toEqual([])
    expect(posts).toBe(1)
    await again.close()
  }, 60_000)
})
