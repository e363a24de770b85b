/**
 * Funding seen, not declared (issue #27). The rule on its own (exact DePix out of the wallet to waiting payments'
 * deposit addresses, one payment or a wave in one transaction), then through a real app context: the embedded
 * sandbox's Liquid chain, LWK scanning the Sandbox treasury, the real SQLite ledger and its audit chain.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { SANDBOX_DEPIX } from '../../../src/main/sandbox/chain'
import { newKeyedAddress, regtestTwin } from '../../../src/main/sandbox/chain/keys'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { FUNDING_SEEN_ACTION, fundingsSeen, recordFundingsSeen } from '../../../src/main/wallet/funding-seen'
import type { WalletMovement } from '../../../src/main/wallet/watch'
import type { WalletViewDto } from '../../../src/shared/channels-wallet'
import type { IpcResult } from '../../../src/shared/contract'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { payFromSandboxTreasury } from '../../support/sandbox-treasury'
import { scriptOfAddress } from '../../../src/main/wallet/meanings'

const DEPIX = 'd'.repeat(64)
const tx = (n: number) => n.toString(16).padStart(64, '0')

describe('fundingsSeen: the rule', () => {
  const a = newKeyedAddress('liquid').address
  const b = newKeyedAddress('liquid').address
  const c = newKeyedAddress('liquid').address
  const waiting = (localId: string, depositAddress: string, cents: number, more: object = {}) => ({
    localId,
    localState: 'created' as const,
    depositAddress,
    depositAmountCents: cents,
    fundingTxId: null,
    ...more,
  })
  const mv = (n: number, height: number | null, depix: bigint, to: string[]): WalletMovement => ({
    txid: tx(n),
    height,
    timestamp: height === null ? null : 1_800_000_000 + height * 60,
    net: new Map([[DEPIX, depix]]),
    fee: 50n,
    outputScripts: [...to.map((x) => scriptOfAddress(x) as string), '0014' + '0'.repeat(40)],
  })
  const records = [waiting('p-a', a, 12_345), waiting('p-b', b, 50_000), waiting('p-c', c, 700)]

  it('one payment paid exactly; a wave of two paid exactly in one transaction', () => {
    const seen = fundingsSeen(
      [mv(1, 10, -12_345_000_000n, [a]), mv(2, null, -50_700_000_000n, [b, c])],
      DEPIX,
      records,
    )
    expect(seen).toEqual([
      { localId: 'p-a', txid: tx(1), confirmed: true },
      { localId: 'p-b', txid: tx(2), confirmed: false },
      { localId: 'p-c', txid: tx(2), confirmed: false },
    ])
  })

  it('not exact (a cent short, a cent over, or more DePix to someone else) is left to the person', () => {
    expect(fundingsSeen([mv(1, 10, -12_344_000_000n, [a])], DEPIX, records)).toEqual([])
    expect(fundingsSeen([mv(1, 10, -12_346_000_000n, [a])], DEPIX, records)).toEqual([])
    // A wave transaction paying only one of its two payments exactly is not a funding of either.
    expect(fundingsSeen([mv(2, 10, -50_000_000_000n - 70_000_000n, [b, c])], DEPIX, records)).toEqual([])
  })

  it('incoming, another asset, a payment already funded with a txid or no longer created: nothing', () => {
    expect(fundingsSeen([mv(1, 10, 12_345_000_000n, [a])], DEPIX, records)).toEqual([])
    expect(fundingsSeen([mv(1, 10, -12_345_000_000n, [a])], 'e'.repeat(64), records)).toEqual([])
    expect(
      fundingsSeen([mv(1, 10, -12_345_000_000n, [a])], DEPIX, [
        waiting('p-a', a, 12_345, { fundingTxId: tx(9) }),
      ]),
    ).toEqual([])
    expect(
      fundingsSeen([mv(1, 10, -12_345_000_000n, [a])], DEPIX, [
        waiting('p-a', a, 12_345, { localState: 'rejected' }),
      ]),
    ).toEqual([])
  })

  it('paid twice: the first confirmed transaction is the funding', () => {
    const seen = fundingsSeen(
      [
        mv(7, null, -12_345_000_000n, [a]),
        mv(5, 20, -12_345_000_000n, [a]),
        mv(6, 12, -12_345_000_000n, [a]),
      ],
      DEPIX,
      records,
    )
    expect(seen).toEqual([{ localId: 'p-a', txid: tx(6), confirmed: true }])
  })
})

describe('recordFundingsSeen: which records, and one failure does not stop the others', () => {
  const a = newKeyedAddress('liquid').address
  const b = newKeyedAddress('liquid').address
  const rec = (localId: string, profile: string, depositAddress: string) =>
    ({
      localId,
      profile,
      localState: 'created',
      depositAddress,
      depositAmountCents: 100,
      fundingTxId: null,
    }) as unknown as WithdrawalRecord
  const movements: WalletMovement[] = [
    {
      txid: tx(1),
      height: 5,
      timestamp: 1_800_000_000,
      net: new Map([[DEPIX, -200_000_000n]]),
      fee: 50n,
      outputScripts: [scriptOfAddress(a)!, scriptOfAddress(b)!],
    },
  ]
  const run = async (everyProfile: boolean, failOn: string | null = null) => {
    const marked: string[] = []
    const audited: string[] = []
    const logged: string[] = []
    const done = await recordFundingsSeen(
      {
        listOpen: () => Promise.resolve([rec('p-a', 'equipe-ana', a), rec('p-b', 'equipe-bia', b)]),
        markFunded: (id) => {
          if (id === failOn) return Promise.reject(new Error('refused'))
          marked.push(id)
          return Promise.resolve()
        },
        appendAudit: (e) => {
          audited.push(String(e.details['localId']))
          return Promise.resolve()
        },
        operator: 'ana',
        log: (l) => logged.push(l),
        everyProfile,
      },
      'equipe-ana',
      movements,
      DEPIX,
    )
    return { done: done.map((d) => d.localId), marked, audited, logged }
  }

  it('this computer: only the profile’s own records (here the wave is not exact for it alone)', async () => {
    expect((await run(false)).done).toEqual([])
  })

  it('a team: every desk’s records; a refusal is logged and the rest recorded', async () => {
    expect(await run(true)).toMatchObject({ done: ['p-a', 'p-b'], audited: ['p-a', 'p-b'] })
    const r = await run(true, 'p-a')
    expect(r).toMatchObject({ done: ['p-b'], marked: ['p-b'], audited: ['p-b'] })
    expect(r.logged).toEqual(['funding seen for p-a not recorded (Error)'])
  })
})

describe('through the app: the Sandbox treasury pays, the ledger records it funded', () => {
  let dataDir: string
  let ctx: AppContext
  const refundAddress = generateLiquidAddress('liquid', { confidential: false }).address

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'funding-seen-'))
    ctx = await createAppContext({
      dataDir,
      vault: createMemoryVault(),
      store: createJsonFileStore(join(dataDir, 'settings.json')),
      app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
      operator: 'tester',
      trackerAutoStart: false,
      walletScanSpacingMs: 0,
      ports: {
        chooseDirectory: () => Promise.resolve(null),
        chooseFile: () => Promise.resolve(null),
        openExternal: () => Promise.resolve(),
      },
    })
    await ctx.router.handle('session:signIn', undefined)
  })
  afterAll(async () => {
    await ctx.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function rpc<T>(channel: string, input: unknown): Promise<T> {
    const r = (await ctx.router.handle(channel, input)) as IpcResult<T>
    if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
    return r.data
  }
  async function create(pixKey: string, cents: number): Promise<WithdrawalRecord> {
    const draft = { pixKey, taxNumber: '52998224725', amount: { kind: 'payout', cents }, refundAddress }
    const q = await rpc<{ intent: { id: string }; duplicates: { localId: string }[] }>('withdrawals:quote', {
      draft,
    })
    const r = await rpc<WithdrawalRecord>('withdrawals:create', {
      draft,
      intentId: q.intent.id,
      confirmedDuplicates: q.duplicates.map((d) => d.localId),
    })
    expect(r.localState).toBe('created')
    expect(r.depositAddress).toMatch(/^lq1/)
    return r
  }
  const record = async (localId: string) =>
    (await rpc<{ record: WithdrawalRecord }>('withdrawals:get', { localId })).record
  const scan = () => rpc<WalletViewDto>('wallet:scan', {})
  const seenAudit = () => ctx.ledger.audit({ limit: 50 }).rows.filter((e) => e.action === FUNDING_SEEN_ACTION)

  it('paid exactly from the treasury: funded with that txid after a scan, no one clicked; audited', async () => {
    const p = await create('paga.pela.carteira@example.com', 12_345)
    const txid = await payFromSandboxTreasury(
      ctx.sandbox!,
      p.depositAddress as string,
      BigInt(p.depositAmountCents as number) * 1_000_000n,
    )
    await scan()
    await vi.waitFor(async () => expect((await record(p.localId)).fundingTxId).toBe(txid), {
      timeout: 10_000,
    })
    const r = await record(p.localId)
    expect(r.fundedAt).not.toBeNull()
    const trail = ctx.ledger.audit({ subject: p.localId, limit: 20 }).rows.map((e) => e.action)
    expect(trail).toContain('withdrawal.funded')
    expect(seenAudit().map((e) => e.details)).toEqual([
      { profile: 'sandbox', txid, localId: p.localId, confirmed: false },
    ])
    expect(ctx.ledger.verifyAuditChain().ok).toBe(true)

    // A later scan (confirmed now) records nothing again.
    ctx.sandbox!.control.advanceClock(61)
    await scan()
    await scan()
    expect(seenAudit()).toHaveLength(1)
    expect((await record(p.localId)).fundingTxId).toBe(txid)
  })

  it('a cent short from the treasury: not funded by the wallet; the manual mark still works', async () => {
    const p = await create('um.centavo.a.menos@example.com', 20_000)
    const txid = await payFromSandboxTreasury(
      ctx.sandbox!,
      p.depositAddress as string,
      BigInt((p.depositAmountCents as number) - 1) * 1_000_000n,
    )
    const v = await scan()
    if (v.state !== 'ready') throw new Error('no wallet')
    expect(v.movements.find((m) => m.txid === txid)).toMatchObject({ meaning: 'payment', localId: p.localId })
    await new Promise((r) => setTimeout(r, 300))
    expect((await record(p.localId)).fundedAt).toBeNull()
    expect(seenAudit()).toHaveLength(1)
  })

  it('paid from another wallet (the sandbox faucet): not in the statement, not seen; the manual mark works', async () => {
    const p = await create('outra.carteira@example.com', 30_000)
    const other = ctx.sandbox!.liquid.faucet.send([
      {
        address: regtestTwin(p.depositAddress as string),
        asset: SANDBOX_DEPIX,
        units: BigInt(p.depositAmountCents as number) * 1_000_000n,
      },
    ])
    ctx.sandbox!.control.advanceClock(61)
    const v = await scan()
    if (v.state !== 'ready') throw new Error('no wallet')
    expect(v.movements.map((m) => m.txid)).not.toContain(other)
    await new Promise((r) => setTimeout(r, 300))
    expect((await record(p.localId)).fundedAt).toBeNull()

    const marked = await rpc<WithdrawalRecord>('withdrawals:markFunded', { localId: p.localId, txId: other })
    expect(marked.fundingTxId).toBe(other)
    expect(marked.fundedAt).not.toBeNull()
    expect(seenAudit()).toHaveLength(1)
  })
})
