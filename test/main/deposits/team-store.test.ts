/**
 * The deposit service on the team ledger (a real PostgreSQL cluster) and a real sandbox, with the server failing
 * between the committed `submitting` deposit and the API's answer:
 * - restarted: the answer is stored on a fresh connection, the deposit is created, POST /deposit left once;
 * - gone: the POST is not resent, the deposit id reaches the operator at once, the answer waits in the profile's
 *   local side journal (shared with withdrawals), and the next start, which builds the withdrawal service first as
 *   the app does, writes it into the team ledger as created.
 * POSTs are counted by the sandbox itself (what arrived on the wire).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepixClient, type DepixClient } from '../../../src/main/api'
import { teamSideJournal } from '../../../src/main/app/runtime'
import { createDepositService, type DepositService } from '../../../src/main/deposits'
import { readSideJournal } from '../../../src/main/journal/side-journal'
import { openPgStore, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createWithdrawalService, type WithdrawalService } from '../../../src/main/withdrawals'
import type { DepositDraft } from '../../../src/shared/deposit-draft'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from '../ledger/team'

announceSkip('deposits on the team store (postgres + sandbox)')

const draft = (amountCents: number): DepositDraft => ({
  amountCents,
  depixAddress: generateLiquidAddress('liquid', { confidential: true }).address,
  endUserTaxNumber: '52998224725',
})

async function reviewed(service: DepositService, d: DepositDraft): Promise<DepositRecord> {
  const q = await service.quote(d)
  return service.create(d, { intentId: q.intent.id })
}

describe.skipIf(PG_SKIP_REASON !== null)('deposit service on the team ledger', () => {
  let team: Team
  let sb: Sandbox
  let dir: string
  const clients: DepixClient[] = []
  const services: Array<DepositService | WithdrawalService> = []
  const stores: PgLedgerStore[] = []

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
  const store = async (role: string): Promise<PgLedgerStore> => {
    const s = await openPgStore({ connection: team.config(role) })
    stores.push(s)
    return s
  }
  const posts = (): number => sb.control.requestCounts()['POST /api/deposit'] ?? 0

  beforeAll(async () => {
    team = await startTeam()
    sb = await startSandbox({ port: 0, httpControl: false })
    dir = mkdtempSync(join(tmpdir(), 'team-deposits-'))
    await team.addAnalyst('erin')
  }, 120_000)

  afterAll(async () => {
    for (const s of services) await ('stop' in s ? s.stop() : Promise.resolve())
    for (const s of services) await s.tracker.stop()
    for (const c of clients) await c.close().catch(() => undefined)
    for (const s of stores) await s.close().catch(() => undefined)
    await sb?.close()
    await team?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('server restarted between the journal and the answer: stored as created, POSTed once', async () => {
    const s = await store('erin')
    const service = createDepositService({
      store: s,
      sideJournal: teamSideJournal(dir, 'restart-profile'),
      client: await client(),
      operator: 'erin',
      network: 'liquid',
      profile: 'restart-profile',
      // Right after `submitting` is committed, before the POST: every pooled connection is cut.
      beforePost: () => team.cluster.restart(),
    })
    services.push(service)
    const before = posts()
    const rec = await reviewed(service, draft(12_300))
    expect(posts() - before).toBe(1)
    expect(rec).toMatchObject({ localState: 'created', amountCents: 12_300 })
    expect(rec.remoteId).toBeTruthy()
    const audit = (await s.audit({ subject: rec.localId })).rows.map((a) => a.action).reverse()
    expect(audit).toEqual(['deposit.submitting', 'deposit.created'])
    expect(readSideJournal(teamSideJournal(dir, 'restart-profile')).entries).toEqual([])
  }, 60_000)

  it('server gone after the journal: no resend, the id is told at once, the next start stores it', async () => {
    const profile = 'gone-profile'
    const sideJournal = teamSideJournal(dir, profile)
    const s = await store('erin')
    const service = createDepositService({
      store: s,
      sideJournal,
      client: await client(),
      operator: 'erin',
      network: 'liquid',
      profile,
      beforePost: () => team.cluster.stopServer(),
    })
    services.push(service)
    const before = posts()
    let e: unknown
    try {
      await reviewed(service, draft(4_500))
    } catch (x) {
      e = x
    } finally {
      team.cluster.startServer()
    }
    expect(posts() - before).toBe(1)
    expect(e).toMatchObject({ code: 'ledger_write_failed', reason: 'side_journal' })
    const createdId = (e as { depositId: string }).depositId
    expect(createdId).toBeTruthy()
    expect((e as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toContain(createdId)
    const kept = readSideJournal(sideJournal).entries
    expect(kept.map((x) => [x.record, x.profile, x.outcome.remoteId])).toEqual([
      ['deposit', profile, createdId],
    ])
    await s.close().catch(() => undefined)

    // The next start on this profile, as the app builds it: a new store, the withdrawal service first (its
    // recovery replays the shared journal, deposits included), then the deposit service, which waits for it.
    const again = await store('erin')
    const c = await client()
    const withdrawals = createWithdrawalService({
      store: again,
      sideJournal,
      client: c,
      operator: 'erin',
      network: 'liquid',
      profile,
    })
    const deposits = createDepositService({
      store: again,
      sideJournal,
      client: c,
      operator: 'erin',
      network: 'liquid',
      profile,
    })
    services.push(withdrawals, deposits)
    const localId = kept[0]!.localId
    let rec: DepositRecord | undefined
    for (let i = 0; i < 100; i++) {
      rec = await again.deposits.get(localId)
      if (rec?.localState === 'created') break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(rec).toMatchObject({ localState: 'created', remoteId: createdId, amountCents: 4_500 })
    const audit = (await again.audit({ subject: localId })).rows.map((a) => a.action).reverse()
    expect(audit).toEqual(['deposit.submitting', 'deposit.created'])
    expect((await again.audit({ subject: localId })).rows[0]?.details).toMatchObject({
      replayed: 'side_journal',
    })
    expect(readSideJournal(sideJournal).entries).toEqual([])
    // A create after the restart goes through, and nothing was sent again for the first one.
    const next = await reviewed(deposits, draft(4_600))
    expect(next.localState).toBe('created')
    expect(posts() - before).toBe(2)
  }, 60_000)
})
