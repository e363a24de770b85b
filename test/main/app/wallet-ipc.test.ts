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
import { SANDBOX_DEPIX, sandboxTreasury } from '../../../src/main/sandbox/chain'
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
