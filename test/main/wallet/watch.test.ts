/**
 * LWK, unchanged, scans the sandbox chain over real loopback HTTP and must agree with the sandbox's own book on
 * every balance and every movement; its state survives a restart; faults never turn into a wrong current balance.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { address as laddress } from 'liquidjs-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newKeyedAddress } from '../../../src/main/sandbox/chain/keys'
import type { WatchedWallet } from '../../../src/main/wallet/watch'
import {
  bookView,
  lwkView,
  openWallet,
  SANDBOX_DEPIX,
  SANDBOX_LBTC,
  spend,
  startHarness,
  type Harness,
} from '../sandbox/chain/harness'
import { multisigRegtest, singlesigRegtest } from './fixtures'

const SEED = 21
const DEPIX = 100_000_000n // 1 DePix = R$ 1,00

let h: Harness
let dir: string
beforeAll(async () => {
  h = await startHarness()
  dir = mkdtempSync(join(tmpdir(), 'wallet-'))
})
afterAll(async () => {
  await h.close()
  rmSync(dir, { recursive: true, force: true })
})

function expectAgreement(wallet: WatchedWallet, snapshot = wallet.snapshot()): void {
  const lwk = lwkView(snapshot)
  const book = bookView(h, wallet, 60)
  expect(lwk.balance).toEqual(book.balance)
  expect(lwk.movements).toEqual(book.movements)
}

describe('a singlesig treasury wallet over 50 blocks and 200 transactions', () => {
  let wallet: WatchedWallet
  const stateFile = () => join(dir, 'single.updates')

  it('first scan, incremental scans, spends built by LWK: LWK and the book agree throughout', async () => {
    wallet = openWallet(h, singlesigRegtest(SEED), stateFile())
    let next = 0
    let spends = 0
    for (let block = 0; block < 50; block++) {
      h.clockMs.now += 60_000
      // One receipt to the wallet (fresh address, so the gap limit is exercised), three noise transactions.
      const to = wallet.address(next++).address
      h.faucet.send([
        { address: to, asset: SANDBOX_DEPIX, units: BigInt(block + 1) * 10n * DEPIX + 1234n },
        ...(block % 5 === 0 ? [{ address: to, asset: SANDBOX_LBTC, units: 20_000n }] : []),
      ])
      for (let n = 0; n < 3; n++) {
        const noise = laddress.fromConfidential(newKeyedAddress().address).unconfidentialAddress
        h.faucet.send([{ address: noise, asset: SANDBOX_DEPIX, units: 7n }])
      }
      if (block % 10 === 9) {
        // The wallet must know its coins before LWK builds a spend: scan, then spend DePix and L-BTC.
        expectAgreement(wallet, await wallet.scan(h.esplora.url))
        spend(h, wallet, SEED, SANDBOX_DEPIX, 3n * DEPIX)
        expectAgreement(wallet, await wallet.scan(h.esplora.url)) // the spend unconfirmed
        spend(h, wallet, SEED, SANDBOX_LBTC, 1_000n)
        spends += 2
      }
      h.chain.mine()
    }
    const s = await wallet.scan(h.esplora.url)
    expect(s.lastFailure).toBeNull()
    expect(h.chain.txCount).toBeGreaterThanOrEqual(200)
    expect(h.chain.height).toBe(50)
    // LWK decoded our headers and computed the same block hash as the chain (rust-elements' rule).
    expect(s.tip).toEqual({ height: 50, hash: h.chain.tip.hash })
    expect(s.movements.length).toBe(50 + spends)
    expect(s.movements.every((m) => m.height !== null && m.timestamp !== null)).toBe(true)
    expectAgreement(wallet, s)
    const depix = s.balances.find((b) => b.asset === SANDBOX_DEPIX)
    // 10 + 20 + … + 500 DePix (+1234 units each) minus five spends of 3 DePix.
    expect(depix).toEqual({
      asset: SANDBOX_DEPIX,
      confirmed: 12_750n * DEPIX + 50n * 1234n - 15n * DEPIX,
      pending: 0n,
    })
  }, 180_000) // ~200 blinded transactions and LWK signing: tens of seconds on a loaded 2-core machine

  it('pending is what is not yet in a block, and becomes confirmed after the next one', async () => {
    const before = wallet.snapshot().balances.find((b) => b.asset === SANDBOX_DEPIX)
    h.faucet.send([{ address: wallet.address().address, asset: SANDBOX_DEPIX, units: 5n * DEPIX }])
    let s = await wallet.scan(h.esplora.url)
    expect(s.balances.find((b) => b.asset === SANDBOX_DEPIX)).toEqual({ ...before, pending: 5n * DEPIX })
    expectAgreement(wallet, s)
    h.chain.mine()
    s = await wallet.scan(h.esplora.url)
    expect(s.balances.find((b) => b.asset === SANDBOX_DEPIX)).toEqual({
      ...before,
      confirmed: (before?.confirmed ?? 0n) + 5n * DEPIX,
      pending: 0n,
    })
  })

  it('a restart shows the last-known state at once, without the network, with the scan time', () => {
    const before = wallet.snapshot()
    const text = readFileSync(stateFile(), 'utf8')
    // LWK encrypts its updates with a key from the descriptor: no txid or address in clear on disk.
    expect(text).not.toContain(before.movements[0]?.txid as string)
    h.esplora.setFault({ kind: 'down' })
    try {
      const restored = openWallet(h, singlesigRegtest(SEED), stateFile())
      const after = restored.snapshot()
      expect(after.balances).toEqual(before.balances)
      expect(lwkView(after).movements).toEqual(lwkView(before).movements)
      expect(after.lastScanAt).toBe(before.lastScanAt)
      expect(after.tip).toEqual(before.tip)
      // Another descriptor cannot read this file: it starts empty instead of showing someone else's state.
      const other = openWallet(h, singlesigRegtest(SEED + 1), stateFile())
      expect(other.snapshot().movements).toEqual([])
      expect(other.snapshot().balances.every((b) => b.confirmed === 0n && b.pending === 0n)).toBe(true)
    } finally {
      h.esplora.setFault(null)
    }
  })

  it('tip-only scans are coalesced: the state file does not grow with every new block', async () => {
    await wallet.scan(h.esplora.url)
    const size = () => readFileSync(stateFile(), 'utf8').split('\n').length
    h.chain.mine()
    await wallet.scan(h.esplora.url)
    const once = size()
    for (let i = 0; i < 3; i++) {
      h.chain.mine()
      await wallet.scan(h.esplora.url)
    }
    expect(size()).toBe(once)
    const restored = openWallet(h, singlesigRegtest(SEED), stateFile())
    expect(restored.snapshot().tip).toEqual(wallet.snapshot().tip)
    expectAgreement(restored)
  })

  describe('faults: the last-known state stays, with its age and why the scan failed', () => {
    const cases = [
      { name: 'Esplora down', fault: { kind: 'down' } as const, limits: {}, failure: 'unreachable' },
      {
        name: 'Esplora slow',
        fault: { kind: 'slow', ms: 1500 } as const,
        limits: { timeoutMs: 200 },
        failure: 'timeout',
      },
      { name: 'garbage', fault: { kind: 'garbage' } as const, limits: {}, failure: 'bad_response' },
      {
        name: 'a huge body',
        fault: { kind: 'huge', bytes: 3_000_000 } as const,
        limits: { maxBodyBytes: 1_000_000 },
        failure: 'too_large',
      },
      {
        name: '503 (LWK would sleep on window.setTimeout)',
        fault: { kind: 'status', status: 503 } as const,
        limits: {},
        failure: 'bad_response',
      },
      { name: 'the request budget', fault: null, limits: { maxRequests: 3 }, failure: 'budget' },
    ]
    for (const c of cases) {
      it(`${c.name} → ${c.failure}`, async () => {
        const before = wallet.snapshot()
        // New money arrives meanwhile: a failed scan must not show a half-applied view of it.
        h.faucet.send([{ address: wallet.address().address, asset: SANDBOX_DEPIX, units: 2n * DEPIX }])
        h.chain.mine()
        h.clockMs.now += 60_000
        h.esplora.setFault(c.fault)
        try {
          const s = await wallet.scan(h.esplora.url, {
            maxRequests: 50_000,
            timeoutMs: 15_000,
            maxBodyBytes: 4_000_000,
            ...c.limits,
          })
          expect(s.lastFailure).toBe(c.failure)
          expect(s.balances).toEqual(before.balances)
          expect(s.lastScanAt).toBe(before.lastScanAt)
        } finally {
          h.esplora.setFault(null)
        }
        const ok = await wallet.scan(h.esplora.url)
        expect(ok.lastFailure).toBeNull()
        expect(ok.lastScanAt).toBe(h.clockMs.now)
        expectAgreement(wallet, ok)
      })
    }

    it('a block replaced (reorg) that drops a receipt: the money disappears again, as in the book', async () => {
      const txid = h.faucet.send([
        { address: wallet.address().address, asset: SANDBOX_DEPIX, units: 9n * DEPIX },
      ])
      h.chain.mine()
      const seen = await wallet.scan(h.esplora.url)
      expect(seen.movements.some((m) => m.txid === txid && m.height === h.chain.height)).toBe(true)
      const staleTip = seen.tip
      h.chain.reorg(1, new Set([txid]))
      h.chain.mine()
      const s = await wallet.scan(h.esplora.url)
      expect(s.lastFailure).toBeNull()
      expect(s.tip?.hash).not.toBe(staleTip?.hash)
      expect(s.movements.some((m) => m.txid === txid)).toBe(false)
      expectAgreement(wallet, s)
    })

    it('a reorg that only moves a transaction to another block: same balance, new height', async () => {
      const txid = h.faucet.send([
        { address: wallet.address().address, asset: SANDBOX_DEPIX, units: 4n * DEPIX },
      ])
      h.chain.mine()
      await wallet.scan(h.esplora.url)
      h.chain.reorg(1)
      h.chain.mine(2)
      const s = await wallet.scan(h.esplora.url)
      expect(s.movements.find((m) => m.txid === txid)?.height).toBe(h.chain.height - 1)
      expectAgreement(wallet, s)
    })
  })
})

describe('a 2-of-3 multisig treasury wallet', () => {
  it('receives and is seen exactly as the book says', async () => {
    const wallet = openWallet(h, multisigRegtest())
    for (let i = 0; i < 5; i++) {
      h.faucet.send([
        { address: wallet.address(i).address, asset: SANDBOX_DEPIX, units: BigInt(i + 1) * DEPIX },
      ])
      h.chain.mine()
    }
    const s = await wallet.scan(h.esplora.url)
    expect(s.lastFailure).toBeNull()
    // LWK always lists the policy asset (L-BTC), at 0 here: the multisig received no fee money.
    expect(s.balances).toEqual([
      { asset: SANDBOX_LBTC, confirmed: 0n, pending: 0n },
      { asset: SANDBOX_DEPIX, confirmed: 15n * DEPIX, pending: 0n },
    ])
    expectAgreement(wallet, s)
  })
})
