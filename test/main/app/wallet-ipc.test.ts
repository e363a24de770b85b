/**
 * Issue #27 through the real router of a real app context: the Sandbox profile starts with its funded treasury
 * wallet on the embedded sandbox's Liquid chain, LWK scans it over loopback, and the views never carry the
 * descriptor.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { address as liquidAddress, networks } from 'liquidjs-lib'
import { SANDBOX_DEPIX, SANDBOX_LBTC, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { movementLabels } from '../../../src/main/wallet/labels'
import { WalletService } from '../../../src/main/wallet/service'
import { newKeyedAddress, twinAddress } from '../../../src/main/sandbox/chain/keys'
import { checkLiquidAddress } from '../../../src/main/liquid/address'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { WalletViewDto } from '../../../src/shared/channels-wallet'
import type { IpcResult } from '../../../src/shared/contract'

let dataDir: string
let ctx: AppContext

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-ipc-'))
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
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}
async function view(
  channel: 'wallet:get' | 'wallet:scan',
): Promise<Extract<WalletViewDto, { state: 'ready' }>> {
  const r = await call<WalletViewDto>(channel, {})
  if (!r.ok || r.data.state !== 'ready') throw new Error(`${channel}: ${JSON.stringify(r)}`)
  return r.data
}

describe('the Sandbox profile treasury wallet', () => {
  it('before a scan: ready, nothing known yet, no network used', async () => {
    const v = await view('wallet:get')
    expect(v.lastScanAt).toBeNull()
    expect(v.depix.confirmedCents).toBe(0)
    expect(v.tipHeight).toBeNull()
  })

  it('the first scan shows the starting R$ 50.000,00 and 0.01 L-BTC, with the funding movement', async () => {
    const v = await view('wallet:scan')
    expect(v.lastFailure).toBeNull()
    expect(v.lastScanAt).not.toBeNull()
    expect(v.depix).toEqual({
      confirmedCents: 5_000_000,
      pendingCents: 0,
      confirmedUnits: '5000000000000',
      pendingUnits: '0',
    })
    expect(v.lbtc).toEqual({ confirmedUnits: '1000000', pendingUnits: '0' })
    expect(v.movements).toHaveLength(1)
    expect(v.movements[0]).toMatchObject({ depixCents: 5_000_000, lbtcUnits: '1000000', height: 2 })
    expect(v.tipHeight).toBe(ctx.sandbox!.liquid.chain.height)
    expect(v.explorerTxUrl).toBeNull()
  })

  it('a top-up arriving: pending, then confirmed once the sandbox clock passes a block', async () => {
    const liquid = ctx.sandbox!.liquid
    liquid.faucet.send([
      { address: sandboxTreasury().firstAddress, asset: SANDBOX_DEPIX, units: 123_456_000_000n },
    ])
    let v = await view('wallet:scan')
    expect(v.depix.pendingCents).toBe(123_456)
    expect(v.movements[0]).toMatchObject({ depixCents: 123_456, height: null, at: null })
    ctx.sandbox!.control.advanceClock(61)
    v = await view('wallet:scan')
    expect(v.depix).toMatchObject({ confirmedCents: 5_123_456, pendingCents: 0 })
    expect(v.movements[0]?.height).toBe(liquid.chain.height)
  })

  it('no view carries the descriptor or its keys; the sandbox treasury cannot be replaced', async () => {
    const all = JSON.stringify([await call('wallet:get', {}), await call('wallet:scan', {})])
    const { descriptor } = sandboxTreasury()
    expect(all).not.toContain('slip77')
    expect(all).not.toContain(/tpub[1-9A-Za-z]+/.exec(descriptor)?.[0] as string)
    const r = await call('wallet:setDescriptor', { descriptor })
    expect(r).toMatchObject({ ok: false, error: { code: 'not_supported' } })
    expect(await call('wallet:get', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
  })
})

describe('addresses from the Sandbox treasury wallet', () => {
  type Proposed = { address: string; index: number }
  const propose = async (): Promise<Proposed> => {
    const r = await call<Proposed | null>('wallet:proposeAddress', {})
    if (!r.ok || r.data === null) throw new Error(JSON.stringify(r))
    return r.data
  }
  const owner = async (address: string) => {
    const r = await call<{ owner: string; index: number | null }>('wallet:checkAddress', { address })
    if (!r.ok) throw new Error(JSON.stringify(r))
    return r.data
  }

  it('fresh per request (the default): each proposal differs, past the used first address, in the profile form', async () => {
    const a = await propose()
    const b = await propose()
    expect(a.index).toBeGreaterThanOrEqual(1) // index 0 received the starting funds
    expect(b.index).toBe(a.index + 1)
    expect(a.address).not.toBe(b.address)
    // The Sandbox profile's addresses are `liquid` ones: the proposal passes the app's own address check.
    expect(checkLiquidAddress(a.address, 'liquid').ok).toBe(true)
    expect(await owner(a.address)).toEqual({ owner: 'treasury', index: a.index })
    expect(await owner(b.address)).toEqual({ owner: 'treasury', index: b.index })
    expect(await owner(twinAddress(sandboxTreasury().firstAddress, 'liquid'))).toEqual({
      owner: 'treasury',
      index: 0,
    })
  })

  it('a top-up delivered to a proposed address shows in the wallet', async () => {
    const a = await propose()
    ctx.sandbox!.liquid.faucet.send([
      { address: twinAddress(a.address, 'regtest'), asset: SANDBOX_DEPIX, units: 7_000_000_000n },
    ])
    const v = await view('wallet:scan')
    expect(v.movements[0]).toMatchObject({ depixCents: 7_000, height: null })
  })

  it('anything else is an external address: another wallet, the same script with another blinding key, garbage', async () => {
    expect(await owner(newKeyedAddress('liquid').address)).toEqual({ owner: 'external', index: null })
    const mine = (await propose()).address
    const { scriptPubKey } = liquidAddress.fromConfidential(mine)
    const otherBlinding = liquidAddress.toConfidential(
      liquidAddress.fromOutputScript(scriptPubKey as Buffer, networks.liquid),
      liquidAddress.fromConfidential(newKeyedAddress('liquid').address).blindingKey,
    )
    expect(otherBlinding).not.toBe(mine)
    expect(await owner(otherBlinding)).toEqual({ owner: 'external', index: null })
    expect(await owner('não é um endereço')).toEqual({ owner: 'external', index: null })
    expect(await call('wallet:checkAddress', { address: 'x'.repeat(201) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
  })
})

describe('labels of unmatched movements', () => {
  it('a label is an audited act (who, when, what), shown in the view; a new one adds an entry, the latest shows', async () => {
    const v = await view('wallet:get')
    const funding = v.movements.find((m) => m.depixCents === 5_000_000)!
    expect(funding).toMatchObject({ meaning: 'other', label: null })
    const r1 = await call<WalletViewDto>('wallet:label', { txid: funding.txid, label: '  Aporte inicial  ' })
    expect(r1.ok).toBe(true)
    const r2 = await call<WalletViewDto>('wallet:label', { txid: funding.txid, label: 'Aporte dos sócios' })
    if (!r2.ok || r2.data.state !== 'ready') throw new Error(JSON.stringify(r2))
    const labelled = r2.data.movements.find((m) => m.txid === funding.txid)!
    expect(labelled.label).toMatchObject({ text: 'Aporte dos sócios', by: 'tester' })
    expect(Date.parse(labelled.label!.at)).not.toBeNaN()
    const audit = ctx.ledger.audit({ subject: `wallet-tx:sandbox:${funding.txid}` }).rows
    expect(audit.map((e) => e.details['label'])).toEqual(['Aporte dos sócios', 'Aporte inicial'])
    expect(audit.every((e) => e.operator === 'tester' && e.action === 'wallet.movement.labelled')).toBe(true)
    expect(ctx.ledger.verifyAuditChain()).toMatchObject({ ok: true })
    // Read back from the ledger: still there for the next view.
    expect((await view('wallet:get')).movements.find((m) => m.txid === funding.txid)?.label?.text).toBe(
      'Aporte dos sócios',
    )
  })

  it('refused: empty, hidden characters, too long, or a txid that is not an unmatched movement; nothing written', async () => {
    const v = await view('wallet:get')
    const txid = v.movements.find((m) => m.meaning === 'other')!.txid
    const before = ctx.ledger.auditHead().seq
    for (const label of ['   ', 'Aporte\u202e00,1 $R', 'linha\nquebrada', 'x'.repeat(121)]) {
      expect(await call('wallet:label', { txid, label })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      })
    }
    expect(await call('wallet:label', { txid: 'a'.repeat(64), label: 'Outro' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    expect(ctx.ledger.auditHead().seq).toBe(before)
  })
})

describe('the statement of the Sandbox treasury', () => {
  it('agrees with the wallet: opening + movements = closing = the confirmed balance; labels carried', async () => {
    const v = await view('wallet:scan')
    const sandboxProfile = ctx.runtime().profile
    // The app's own service, as context.ts builds it, over the same sandbox chain and the same ledger.
    const wallet = new WalletService({
      vault: createMemoryVault(),
      dataDir: null,
      now: () => Date.now(),
      sandbox: {
        esploraUrl: ctx.sandbox!.esploraUrl,
        descriptor: sandboxTreasury().descriptor,
        depixAsset: SANDBOX_DEPIX,
        policyAsset: SANDBOX_LBTC,
        twin: twinAddress,
      },
      onChange: () => undefined,
      log: () => undefined,
      minScanSpacingMs: 0,
      labels: (id) => movementLabels(ctx.ledger, id),
    })
    await wallet.scan(sandboxProfile)
    const all = wallet.statement(sandboxProfile, 0, Date.now() + 86_400_000)!
    expect(all.openingUnits).toBe(0n)
    expect(all.closingUnits.toString()).toBe(v.depix.confirmedUnits)
    expect(all.closingCents).toBe(v.depix.confirmedCents)
    expect(all.pendingTxids).toEqual(v.movements.filter((m) => m.height === null).map((m) => m.txid))
    const funding = all.lines.find((l) => l.height === 2)!
    expect(funding).toMatchObject({ meaning: 'other', label: 'Aporte dos sócios', depixCents: 5_000_000 })
    // A period starting after the funding block: the funding is in its opening balance, not in its lines.
    const after = wallet.statement(sandboxProfile, Date.parse(funding.at) + 1, Date.now() + 86_400_000)!
    expect(after.openingCents).toBe(5_000_000)
    expect(after.lines.map((l) => l.txid)).not.toContain(funding.txid)
    expect(after.closingUnits).toBe(all.closingUnits)
    wallet.close()
  })
})
