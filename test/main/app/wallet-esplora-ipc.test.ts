/**
 * Issue #27, the Esplora of each profile, through the real router of a real app context: a live regtest profile
 * has no public Esplora and is not scanned until Configurações names one; the URL is checked (https, or http to
 * this computer only; no credentials, no query), stored in the profile, and the wallet scans through it at once.
 * The Sandbox profile's chain cannot be changed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { SANDBOX_DEPIX, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { esploraUrlOf } from '../../../src/main/wallet/service'
import type { WalletViewDto } from '../../../src/shared/channels-wallet'
import type { IpcResult } from '../../../src/shared/contract'
import { profileSchema, type PublicProfile } from '../../../src/shared/profile'

let dataDir: string
let ctx: AppContext
let liveId: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-esplora-'))
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
  const sandbox = ctx.sandbox!
  const cred = sandbox.control.createCredential({ label: 'esplora-profile' })
  const added = await call<PublicProfile>('profiles:addLive', {
    name: 'Regtest própria',
    baseUrl: sandbox.baseUrl,
    network: 'regtest',
    assetId: SANDBOX_DEPIX,
    auth: { kind: 'client_credentials', clientId: cred.clientId, clientSecret: cred.clientSecret },
  })
  if (!added.ok) throw new Error(JSON.stringify(added))
  liveId = added.data.id
  expect((await call('profiles:select', { id: liveId })).ok).toBe(true)
  const set = await call<WalletViewDto>('wallet:setDescriptor', { descriptor: sandboxTreasury().descriptor })
  expect(set).toMatchObject({ ok: true, data: { state: 'ready' } })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}
async function scan(): Promise<Extract<WalletViewDto, { state: 'ready' }>> {
  const r = await call<WalletViewDto>('wallet:scan', {})
  if (!r.ok || r.data.state !== 'ready') throw new Error(JSON.stringify(r))
  return r.data
}
async function stored(): Promise<PublicProfile> {
  const r = await call<{ profiles: PublicProfile[] }>('profiles:list')
  if (!r.ok) throw new Error(JSON.stringify(r))
  return r.data.profiles.find((p) => p.id === liveId)!
}

describe('the Esplora URL of a profile', () => {
  it('a live regtest profile without one is not scanned (there is no public regtest Esplora)', async () => {
    expect((await stored()).esploraUrl).toBeUndefined()
    const v = await scan()
    expect(v.lastScanAt).toBeNull()
    expect(v.depix.confirmedCents).toBe(0)
  })

  it.each([
    ['http://esplora.example.com/liquid/api', 'esplora_url_https_required'],
    ['https://user:pw@esplora.example.com/api', 'esplora_url_credentials'],
    ['https://esplora.example.com/api?key=1', 'esplora_url_credentials'],
    ['https://esplora.example.com/api#x', 'esplora_url_credentials'],
    ['ftp://esplora.example.com/api', 'esplora_url_invalid'],
    ['esplora.example.com', 'esplora_url_invalid'],
    [`https://esplora.example.com/${'a'.repeat(2100)}`, 'esplora_url_invalid'],
  ])('refuses %s with %s and stores nothing', async (esploraUrl, code) => {
    const r = await call('profiles:update', { id: liveId, patch: { esploraUrl } })
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { 'patch.esploraUrl': code } },
    })
    expect((await stored()).esploraUrl).toBeUndefined()
  })

  it('a self-hosted one over loopback http is stored normalized and the wallet scans through it at once', async () => {
    const url = ctx.sandbox!.esploraUrl
    expect(new URL(url).hostname).toBe('127.0.0.1')
    const r = await call<PublicProfile>('profiles:update', { id: liveId, patch: { esploraUrl: ` ${url}/ ` } })
    expect(r).toMatchObject({ ok: true, data: { esploraUrl: url } })
    const v = await scan()
    expect(v.lastFailure).toBeNull()
    expect(v.lastScanAt).not.toBeNull()
    expect(v.depix.confirmedCents).toBeGreaterThanOrEqual(5_000_000)
    expect(v.tipHeight).toBe(ctx.sandbox!.liquid.chain.height)
    // Other fields of the profile are untouched by the update.
    expect(await stored()).toMatchObject({
      name: 'Regtest própria',
      network: 'regtest',
      assetId: SANDBOX_DEPIX,
    })
  })

  it('blank or null goes back to the default (none on regtest): the field is removed, scans stop', async () => {
    const before = await scan()
    for (const esploraUrl of ['', null]) {
      const r = await call<PublicProfile>('profiles:update', { id: liveId, patch: { esploraUrl } })
      expect(r.ok).toBe(true)
      expect((await stored()).esploraUrl).toBeUndefined()
    }
    const after = await scan()
    expect(after.lastScanAt).toBe(before.lastScanAt)
  })

  it('the address policy is stored with the profile, and only a known value', async () => {
    expect(
      await call('profiles:update', { id: liveId, patch: { walletAddressPolicy: 'fixed' } }),
    ).toMatchObject({
      ok: true,
      data: { walletAddressPolicy: 'fixed' },
    })
    expect(
      await call('profiles:update', { id: liveId, patch: { walletAddressPolicy: 'any' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect((await stored()).walletAddressPolicy).toBe('fixed')
    // One per profile: every proposal is the same receive address (index 0), the wallet's own.
    const a = await call('wallet:proposeAddress', {})
    const b = await call('wallet:proposeAddress', {})
    expect(a).toEqual(b)
    expect(a).toMatchObject({ ok: true, data: { address: sandboxTreasury().firstAddress, index: 0 } })
    expect(await call('wallet:checkAddress', { address: sandboxTreasury().firstAddress })).toMatchObject({
      ok: true,
      data: { owner: 'treasury', index: 0 },
    })
  })

  it('back to fresh: a new address each time, the next index kept on disk for the next session', async () => {
    await call('profiles:update', { id: liveId, patch: { walletAddressPolicy: 'fresh' } })
    const a = (await call<{ index: number }>('wallet:proposeAddress', {})) as {
      ok: true
      data: { index: number }
    }
    const b = (await call<{ index: number }>('wallet:proposeAddress', {})) as {
      ok: true
      data: { index: number }
    }
    expect(a.data.index).toBeGreaterThanOrEqual(1)
    expect(b.data.index).toBe(a.data.index + 1)
    expect(readFileSync(join(dataDir, `wallet-${liveId}.next`), 'utf8')).toBe(`${b.data.index + 1}\n`)
  })

  it('the Sandbox profile keeps its own chain: its Esplora cannot be edited', async () => {
    const r = await call('profiles:update', { id: 'sandbox', patch: { esploraUrl: 'https://x.example/api' } })
    expect(r.ok).toBe(false)
    expect((await call<{ profiles: PublicProfile[] }>('profiles:list')).ok).toBe(true)
  })
})

describe('esploraUrlOf', () => {
  const base = profileSchema.parse({
    id: 'p',
    name: 'P',
    kind: 'live',
    baseUrl: 'https://api.example.com',
    network: 'liquid',
    rateLimits: {},
    auth: { kind: 'client_credentials', clientId: 'c' },
    createdAt: '2026-11-27T00:00:00Z',
  })
  it('the public Esplora of the network by default, the profile own one when set, none on regtest', () => {
    expect(esploraUrlOf(base)).toBe('https://blockstream.info/liquid/api')
    expect(esploraUrlOf({ ...base, network: 'testnet' })).toBe('https://blockstream.info/liquidtestnet/api')
    expect(esploraUrlOf({ ...base, network: 'regtest' })).toBeNull()
    expect(esploraUrlOf({ ...base, esploraUrl: 'https://esplora.mine.example/api' })).toBe(
      'https://esplora.mine.example/api',
    )
  })
})
