/**
 * Team migration 18 on a real PostgreSQL server with the sandbox's Liquid chain: the owner registers the team's
 * watch-only descriptor (checked by LWK; a private key refused before and by the table), its receive addresses
 * become the team's registered treasury addresses, and two desks (two analyst roles, each its own pool and its
 * own wallet service) read it from the database, scan the same chain and show the same balance and statement —
 * the chain's own book's — with the same meanings and labels, read from the team ledger. The registered-address check is the database's (`topup_needs_approval`). A hostile
 * analyst cannot write the descriptor.
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { DescriptorError } from '../../../src/main/wallet/descriptor'
import { WalletService } from '../../../src/main/wallet/service'
import { labelTeamMovement, teamMovementLabels } from '../../../src/main/wallet/labels'
import { storeMeanings } from '../../../src/main/wallet/ledger-meanings'
import { readTeamWallet, receiveAddresses, setTeamWallet } from '../../../src/main/wallet/team-wallet'
import { newKeyedAddress } from '../../../src/main/sandbox/chain/keys'
import type { Profile } from '../../../src/shared/profile'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { psqlAs, sqlstate } from '../ledger/adversary'
import { startTeam, type Team } from '../ledger/team'
import {
  bookView,
  openWallet,
  SANDBOX_DEPIX,
  SANDBOX_LBTC,
  spend,
  startHarness,
  type Harness,
} from '../sandbox/chain/harness'
import { singlesigRegtest } from './fixtures'

announceSkip('migration 18: the team treasury wallet (postgres)')

const SEED = 27
const XPRV =
  'ct(slip77(ab5824f4477b4ebb00a132adfd8eb0b7935cf24f6ac151add5d1913db374ce92),elwpkh(tprv8ZgxMBicQKsPd7Uf69XL1XwhmjHopUGep8GuEiJDZmbQz6o58LninorQAfcKZWARbtRtfnLcJ5MQ2AtHcQJCCRUcMRvmDUjyEmNUWwx8UbK/*))'

describe.skipIf(PG_SKIP_REASON !== null)('migration 18: the team treasury wallet', () => {
  let team: Team
  let owner: pg.Client
  let eve: pg.Client
  let h: Harness
  const descriptor = singlesigRegtest(SEED)
  const profile = (esploraUrl: string) =>
    ({ id: 'equipe', kind: 'live', network: 'regtest', esploraUrl, assetId: SANDBOX_DEPIX }) as Profile

  beforeAll(async () => {
    team = await startTeam()
    owner = await team.owner()
    eve = await psqlAs(team, 'eve')
    h = await startHarness()
    // The treasury's history: receipts and spends over a few blocks, signed by LWK with the wallet's own seed.
    const w = openWallet(h, descriptor)
    const [a0, a1] = receiveAddresses(descriptor, 'regtest', 2)
    h.faucet.send([
      { address: a0!, asset: SANDBOX_DEPIX, units: 700_000_000_000n },
      { address: a0!, asset: SANDBOX_LBTC, units: 1_000_000n },
    ])
    h.chain.mine()
    h.faucet.send([{ address: a1!, asset: SANDBOX_DEPIX, units: 12_345_000_000n }])
    h.chain.mine()
    await w.scan(h.esplora.url)
    spend(h, w, SEED, SANDBOX_DEPIX, 100_000_000_000n)
    h.chain.mine()
    w.close()
  }, 120_000)
  afterAll(async () => {
    await eve?.end().catch(() => undefined)
    await team?.stop()
    await h?.close()
  })

  it('a private key, a phrase or another network is refused before the database; the table refuses one too', async () => {
    await expect(setTeamWallet(owner, XPRV, 'regtest')).rejects.toBeInstanceOf(DescriptorError)
    await expect(setTeamWallet(owner, descriptor, 'liquid')).rejects.toMatchObject({
      reason: 'wrong_network',
    })
    expect(await readTeamWallet(owner)).toBeNull()
    // The owner at psql, past the app: the table itself refuses an extended private key.
    expect(await sqlstate(owner.query('SELECT ledger.team_wallet_set($1, $2)', [XPRV, 'regtest']))).toBe(
      '23514',
    )
    expect((await owner.query('SELECT count(*)::int AS n FROM ledger.team_wallet')).rows[0].n).toBe(0)
  })

  it('the owner registers it: stored, its addresses registered, audited by hash, never the text', async () => {
    const r = await setTeamWallet(owner, descriptor, 'regtest', 20)
    expect(r.registered).toBe(20)
    expect((await readTeamWallet(eve))?.descriptor).toBe(descriptor)
    const audit = await owner.query(
      `SELECT action, subject, details FROM ledger.audit_log WHERE action LIKE 'treasury.%' ORDER BY seq`,
    )
    const set = audit.rows.find((a: { action: string }) => a.action === 'treasury.wallet_set')
    expect(set.subject).toBe('team-wallet')
    expect(JSON.stringify(audit.rows)).not.toContain(descriptor.slice(10, 40))
    expect(JSON.parse(set.details as string)).toMatchObject({ network: 'regtest' })
    expect(audit.rows.filter((a: { action: string }) => a.action === 'treasury.address_added')).toHaveLength(
      20,
    )
    // Again: the same addresses are not registered twice.
    expect((await setTeamWallet(owner, descriptor, 'regtest', 20)).registered).toBe(0)
  })

  it('a hostile analyst cannot write it, nor call the owner function', async () => {
    const other = singlesigRegtest(SEED + 1)
    expect(await sqlstate(eve.query('SELECT ledger.team_wallet_set($1, $2)', [other, 'regtest']))).toBe(
      '42501',
    )
    expect(await sqlstate(eve.query('SELECT ledger.team_wallet_clear()'))).toBe('42501')
    expect(
      await sqlstate(eve.query(`UPDATE ledger.team_wallet SET descriptor = $1 WHERE id = 1`, [other])),
    ).toBe('42501')
    expect(await sqlstate(eve.query('DELETE FROM ledger.team_wallet'))).toBe('42501')
    expect((await readTeamWallet(eve))?.descriptor).toBe(descriptor)
  })

  it('two desks read it from the database and show the same balance and statement: the book’s', async () => {
    const desks = await Promise.all(['ana', 'bia'].map((n) => team.desk(n)))
    // Ana's payment on the team ledger (its refund address a registered one), funded by the team's wallet.
    const deposit = newKeyedAddress()
    const [, , , refundTo] = receiveAddresses(descriptor, 'regtest', 4)
    const rec = await desks[0]!.insertSubmitting(
      {
        profile: 'equipe-ana',
        request: { pixKey: 'time@example.com', payoutAmountInCents: 1_000, refundAddress: refundTo },
        pixKey: 'time@example.com',
        amountKind: 'payout',
        amountCents: 1_000,
      },
      'Ana',
    )
    await desks[0]!.markCreated(rec.localId, {
      remoteId: 'w-equipe-1',
      createResponse: null,
      requestId: null,
      depositAddress: deposit.address,
      depositAmountCents: 1_030,
    })
    const w = openWallet(h, descriptor)
    await w.scan(h.esplora.url)
    const fundingTx = spend(h, w, SEED, SANDBOX_DEPIX, 1_030_000_000n, deposit)
    h.chain.mine()
    const receipt = (await w.scan(h.esplora.url)).movements.find(
      (m) => m.net.get(SANDBOX_DEPIX) === 12_345_000_000n,
    )!.txid
    w.close()
    // Ana labels the unmatched receipt: an entry of the team ledger's audit chain, which Bia's desk reads.
    await labelTeamMovement(desks[0]!, { txid: receipt, label: 'Aporte do sócio', operator: 'Ana' })

    const views = []
    const statements = []
    const p = profile(h.esplora.url)
    for (const d of desks) {
      // Each desk's meanings from the team ledger (Bia's desk never saw Ana's payment locally).
      const meanings = await storeMeanings(d)
      const svc = new WalletService({
        vault: createMemoryVault(),
        dataDir: null,
        now: () => h.clockMs.now,
        sandbox: null,
        onChange: () => undefined,
        log: () => undefined,
        minScanSpacingMs: 0,
      })
      expect(svc.view(p)).toEqual({ state: 'not_configured' })
      svc.useTeamWallet(p.id, await readTeamWallet(d.pool))
      svc.useTeamRecords(p.id, { meanings, labels: await teamMovementLabels(d.pool) })
      const v = await svc.scan(p)
      if (v.state !== 'ready') throw new Error('not ready')
      expect(v.lastFailure).toBeNull()
      views.push({ ...v, lastScanAt: null })
      statements.push(svc.statement(p, 0, null))
      svc.close()
    }
    // The owner's step left the team's audit chain intact, as each desk verifies it.
    for (const d of desks) expect((await d.verifyAuditChain()).ok).toBe(true)
    expect(views[1]).toEqual(views[0])
    expect(statements[1]).toEqual(statements[0])
    const ready = views[0] as Extract<(typeof views)[number], { state: 'ready' }>
    // The sandbox chain's own book of the same wallet.
    const again = openWallet(h, descriptor)
    const book = bookView(h, again, 20)
    again.close()
    expect(BigInt(ready.depix.confirmedUnits)).toBe(book.balance.get(SANDBOX_DEPIX))
    expect(ready.depix.confirmedUnits).toBe(
      (700_000_000_000n + 12_345_000_000n - 100_000_000_000n - 1_030_000_000n).toString(),
    )
    expect(statements[0]?.closingUnits.toString()).toBe(ready.depix.confirmedUnits)
    expect(new Set(statements[0]?.lines.map((l) => l.txid))).toEqual(new Set(book.movements.keys()))
    expect(statements[1]?.lines.find((l) => l.txid === receipt)).toMatchObject({
      meaning: 'other',
      label: 'Aporte do sócio',
    })
    expect(statements[0]?.reconciliation.payments).toEqual([
      { localId: rec.localId, txid: fundingTx, depixUnits: -1_030_000_000n },
    ])
  })

  it('the registered-address check is the database’s: a wallet address passes, another needs approval', async () => {
    const ana = (await team.desk('ana')).pool
    const needs = async (address: string): Promise<boolean> =>
      (await ana.query('SELECT ledger.topup_needs_approval(100, $1) AS n', [address])).rows[0].n as boolean
    const [, , a2] = receiveAddresses(descriptor, 'regtest', 3)
    expect(await needs(a2!)).toBe(false)
    const stranger = receiveAddresses(singlesigRegtest(SEED + 2), 'regtest', 1)[0]!
    expect(await needs(stranger)).toBe(true)
  })
})
