import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createJsonFileStore,
  createProfileService,
  ProfileError,
  type KeyValueStore,
  type ProfileService,
  type SandboxInfo,
} from '../../../src/main/profiles'
import { createMemoryVault, openFileVault, type Vault } from '../../../src/main/secrets/vault'
import { publicProfileSchema, type NewLiveProfileInput } from '../../../src/shared/profile'
import { fakeCrypto } from '../secrets/fake-crypto'

const SECRET = 'cs_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0'
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIiwic2NvcGUiOlsid2l0aGRyYXciXX0.c2lnbmF0dXJl'

const clientInput: NewLiveProfileInput = {
  name: 'Conta Principal',
  baseUrl: 'https://depix.example/',
  network: 'liquid',
  auth: { kind: 'client_credentials', clientId: 'acme-treasury', clientSecret: SECRET },
}
const tokenInput: NewLiveProfileInput = {
  name: 'Legado',
  baseUrl: 'https://depix.example',
  network: 'liquid',
  auth: { kind: 'legacy_token', token: TOKEN },
}

let dir: string
let storeFile: string
let vaultFile: string
let sandbox: SandboxInfo | null
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'profiles-'))
  storeFile = join(dir, 'settings.json')
  vaultFile = join(dir, 'secrets.json')
  sandbox = { baseUrl: 'http://127.0.0.1:4010/', clientId: 'sandbox-client' }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const crypto = fakeCrypto()
function open(o: { vault?: Vault; store?: KeyValueStore } = {}): { svc: ProfileService; vault: Vault } {
  const vault = o.vault ?? openFileVault({ file: vaultFile, crypto })
  const svc = createProfileService({
    store: o.store ?? createJsonFileStore(storeFile),
    vault,
    sandbox: () => sandbox,
    now: () => new Date('2025-06-01T12:00:00.000Z'),
  })
  return { svc, vault }
}

function storeText(): string {
  return readFileSync(storeFile, 'utf8')
}

function writeStore(content: unknown): void {
  writeFileSync(storeFile, JSON.stringify(content))
}

function thrown(fn: () => unknown): ProfileError {
  try {
    fn()
  } catch (e) {
    if (e instanceof ProfileError) return e
    throw e
  }
  throw new Error('expected a ProfileError')
}

describe('the built-in Sandbox profile', () => {
  it('is listed first, from the running embedded sandbox, and is active by default', () => {
    const { svc } = open()
    const [first, ...rest] = svc.list()
    expect(rest).toEqual([])
    expect(first).toMatchObject({
      id: 'sandbox',
      name: 'Sandbox',
      kind: 'sandbox',
      baseUrl: 'http://127.0.0.1:4010',
      network: 'liquid',
      partnerRateBps: 100,
      auth: { kind: 'client_credentials', clientId: 'sandbox-client' },
      hasSecret: true,
    })
    expect(svc.active().id).toBe('sandbox')
    expect(svc.credentials('sandbox')).toBeNull()
    expect(publicProfileSchema.safeParse(first).success).toBe(true)
  })

  it('follows the sandbox as it starts, and shows a non-connectable URL before', () => {
    sandbox = null
    const { svc } = open()
    expect(svc.get('sandbox')?.baseUrl).toBe('http://127.0.0.1:0')
    sandbox = { baseUrl: 'http://127.0.0.1:5555', network: 'liquid', partnerRateBps: 250 }
    expect(svc.get('sandbox')).toMatchObject({
      baseUrl: 'http://127.0.0.1:5555',
      network: 'liquid',
      partnerRateBps: 250,
    })
  })

  it('ignores a sandbox report that is not loopback or not valid', () => {
    sandbox = { baseUrl: 'http://depix.example' }
    const { svc } = open()
    expect(svc.get('sandbox')?.baseUrl).toBe('http://127.0.0.1:0')
    sandbox = { baseUrl: 'http://127.0.0.1:1', partnerRateBps: -5 }
    expect(svc.get('sandbox')?.partnerRateBps).toBe(100)
  })

  it('cannot be changed or removed', () => {
    const { svc } = open()
    expect(thrown(() => svc.remove('sandbox')).code).toBe('sandbox_readonly')
    expect(thrown(() => svc.update('sandbox', { name: 'X' })).code).toBe('sandbox_readonly')
    expect(thrown(() => svc.setCredentials('sandbox', tokenInput.auth)).code).toBe('sandbox_readonly')
  })
})

describe('adding live profiles', () => {
  it('stores a client-credentials profile with its secret in the vault, never in the store', () => {
    const { svc, vault } = open()
    const p = svc.addLive(clientInput)
    expect(p).toEqual({
      id: 'conta-principal',
      name: 'Conta Principal',
      kind: 'live',
      baseUrl: 'https://depix.example',
      network: 'liquid',
      rateLimits: {},
      partnerRateBps: 100,
      auth: { kind: 'client_credentials', clientId: 'acme-treasury' },
      createdAt: '2025-06-01T12:00:00.000Z',
      hasSecret: true,
    })
    expect(vault.get('profile:conta-principal:clientSecret')).toBe(SECRET)
    expect(storeText()).not.toContain(SECRET)
    expect(readFileSync(vaultFile, 'utf8')).not.toContain(SECRET)
    expect(JSON.stringify(svc.list())).not.toContain(SECRET)
    expect(svc.credentials(p.id)).toEqual({
      kind: 'client_credentials',
      clientId: 'acme-treasury',
      clientSecret: SECRET,
    })
  })

  it('survives a restart', () => {
    open().svc.addLive({ ...clientInput, rateLimits: { withdraw: 5 }, partnerRateBps: 150 })
    const { svc } = open()
    expect(svc.list().map((p) => p.id)).toEqual(['sandbox', 'conta-principal'])
    expect(svc.get('conta-principal')).toMatchObject({ rateLimits: { withdraw: 5 }, partnerRateBps: 150 })
    expect(svc.credentials('conta-principal')?.kind).toBe('client_credentials')
    expect(svc.warnings()).toEqual([])
  })

  it('stores a legacy-token profile', () => {
    const { svc, vault } = open()
    const p = svc.addLive({ ...tokenInput, auth: { kind: 'legacy_token', token: `Bearer ${TOKEN}` } })
    expect(p.auth).toEqual({ kind: 'legacy_token' })
    expect(vault.get('profile:legado:legacyToken')).toBe(TOKEN)
    expect(vault.get('profile:legado:clientSecret')).toBeNull()
    expect(svc.credentials(p.id)).toEqual({ kind: 'legacy_token', token: TOKEN })
    expect(storeText()).not.toContain(TOKEN)
  })

  it('requires https except on loopback', () => {
    const { svc } = open()
    const e = thrown(() => svc.addLive({ ...clientInput, baseUrl: 'http://depix.example' }))
    expect(e.code).toBe('invalid_input')
    expect(e.fields).toEqual({ baseUrl: 'base_url_https_required' })
    expect(svc.addLive({ ...clientInput, baseUrl: 'http://localhost:4010' }).baseUrl).toBe(
      'http://localhost:4010',
    )
  })

  it('requires a clientId for client credentials', () => {
    const { svc } = open()
    const auth = { kind: 'client_credentials' as const, clientId: '', clientSecret: SECRET }
    const e = thrown(() => svc.addLive({ ...clientInput, auth }))
    expect(e.fields).toEqual({ 'auth.clientId': 'client_id_required' })
    expect(JSON.stringify(e) + e.message + (e.stack ?? '')).not.toContain(SECRET)
    expect(svc.list()).toHaveLength(1)
  })

  it('refuses a name already used (case-insensitively, Sandbox included) and makes ids unique', () => {
    const { svc } = open()
    svc.addLive(clientInput)
    expect(thrown(() => svc.addLive({ ...clientInput, name: 'conta principal' })).code).toBe('name_taken')
    expect(thrown(() => svc.addLive({ ...clientInput, name: 'SANDBOX' })).fields).toEqual({
      name: 'name_taken',
    })
    expect(svc.addLive({ ...clientInput, name: 'Conta  Principal!' }).id).toBe('conta-principal-2')
  })

  it('never lets a secret left by an earlier profile of the same id sign the new one in', () => {
    const { svc, vault } = open()
    vault.set('profile:legado:clientSecret', 'stale-secret-from-before')
    svc.addLive(tokenInput)
    expect(vault.get('profile:legado:clientSecret')).toBeNull()
  })

  it('takes the secret back out of the vault when the record cannot be saved', () => {
    const failing: KeyValueStore = {
      get: () => undefined,
      set: () => {
        throw new Error('disk full')
      },
      delete: () => {},
    }
    const vault = createMemoryVault()
    const { svc } = open({ vault, store: failing })
    expect(() => svc.addLive(clientInput)).toThrow('disk full')
    expect(vault.keys()).toEqual([])
    expect(svc.list()).toHaveLength(1)
  })
})

describe('changing and removing live profiles', () => {
  it('updates name, rate limits and partner rate', () => {
    const { svc } = open()
    const { id } = svc.addLive(clientInput)
    svc.addLive(tokenInput)
    const p = svc.update(id, { name: 'Tesouraria', rateLimits: { 'withdraw-status': 30 }, partnerRateBps: 0 })
    expect(p).toMatchObject({
      id,
      name: 'Tesouraria',
      rateLimits: { 'withdraw-status': 30 },
      partnerRateBps: 0,
    })
    expect(thrown(() => svc.update(id, { name: 'legado' })).code).toBe('name_taken')
    expect(thrown(() => svc.update(id, { partnerRateBps: 10_000 })).fields).toEqual({
      partnerRateBps: 'partner_rate_invalid',
    })
    expect(thrown(() => svc.update('nope', { name: 'X' })).code).toBe('not_found')
    expect(open().svc.get(id)?.name).toBe('Tesouraria')
  })

  it('removes a profile and its secrets, and falls back to Sandbox when it was active', () => {
    const { svc, vault } = open()
    const { id } = svc.addLive(clientInput)
    svc.setActive(id)
    vault.set(`profile:${id}:walletDescriptor`, 'ct(…)') // issue #27: the treasury wallet's descriptor
    svc.remove(id)
    expect(vault.keys()).toEqual([])
    expect(svc.list().map((p) => p.id)).toEqual(['sandbox'])
    expect(svc.active().id).toBe('sandbox')
    expect(svc.credentials(id)).toBeNull()
    expect(open().svc.settings().activeProfileId).toBe('sandbox')
    expect(thrown(() => svc.remove(id)).code).toBe('not_found')
  })

  it('replaces credentials, switching kind and deleting the old secret', () => {
    const { svc, vault } = open()
    const { id } = svc.addLive(clientInput)
    const p = svc.setCredentials(id, { kind: 'legacy_token', token: TOKEN })
    expect(p).toMatchObject({ auth: { kind: 'legacy_token' }, hasSecret: true })
    expect(vault.keys()).toEqual([`profile:${id}:legacyToken`])
    const q = svc.setCredentials(id, {
      kind: 'client_credentials',
      clientId: 'rotated',
      clientSecret: 'new-secret',
    })
    expect(q.auth).toEqual({ kind: 'client_credentials', clientId: 'rotated' })
    expect(svc.credentials(id)).toEqual({
      kind: 'client_credentials',
      clientId: 'rotated',
      clientSecret: 'new-secret',
    })
    expect(vault.keys()).toEqual([`profile:${id}:clientSecret`])
    const e = thrown(() =>
      svc.setCredentials(id, { kind: 'client_credentials', clientId: 'x', clientSecret: '' }),
    )
    expect(e.fields).toEqual({ 'auth.clientSecret': 'client_secret_required' })
  })

  it('with a memory-only vault, a restart shows the secret missing until it is entered again', () => {
    open({ vault: createMemoryVault({ reason: 'basic_text_backend' }) }).svc.addLive(clientInput)
    const { svc } = open({ vault: createMemoryVault({ reason: 'basic_text_backend' }) })
    expect(svc.list()[1]).toMatchObject({ id: 'conta-principal', hasSecret: false })
    expect(svc.credentials('conta-principal')).toBeNull()
    svc.setCredentials('conta-principal', clientInput.auth)
    expect(svc.list()[1]?.hasSecret).toBe(true)
  })
})

describe('active profile', () => {
  it('refuses an unknown id and persists a known one', () => {
    const { svc } = open()
    const e = thrown(() => svc.setActive('nope'))
    expect(e.code).toBe('not_found')
    expect(svc.active().id).toBe('sandbox')
    const { id } = svc.addLive(clientInput)
    expect(svc.setActive(id).id).toBe(id)
    expect(open().svc.active().id).toBe(id)
    expect(svc.setActive('sandbox').kind).toBe('sandbox')
  })
})

describe('settings', () => {
  it('defaults, updates and persists', () => {
    const { svc } = open()
    expect(svc.settings()).toEqual({
      language: 'pt-BR',
      activeProfileId: 'sandbox',
      csvDelimiter: ';',
      csvLocale: 'pt-BR',
      notifications: true,
      liveConfirmAboveCents: 1_000_000,
    })
    expect(svc.updateSettings({ language: 'en', csvDelimiter: ',' })).toMatchObject({
      language: 'en',
      csvDelimiter: ',',
    })
    expect(open().svc.settings()).toMatchObject({ language: 'en', csvDelimiter: ',', csvLocale: 'pt-BR' })
    // The desk's confirmation limit (issue #26): integer cents or null (never ask), persisted; others refused.
    svc.updateSettings({ liveConfirmAboveCents: null })
    expect(open().svc.settings().liveConfirmAboveCents).toBeNull()
    expect(() => svc.updateSettings({ liveConfirmAboveCents: 12.5 })).toThrow()
    expect(open().svc.settings().liveConfirmAboveCents).toBeNull()
  })

  it('validates patches and the active profile id', () => {
    const { svc } = open()
    expect(thrown(() => svc.updateSettings({ language: 'fr' as 'en' })).fields).toEqual({
      language: 'language_invalid',
    })
    expect(thrown(() => svc.updateSettings({ activeProfileId: 'ghost' })).code).toBe('not_found')
    expect(svc.settings().language).toBe('pt-BR')
  })

  it('a returned settings object is a copy', () => {
    const { svc } = open()
    const s = svc.settings()
    s.language = 'en'
    expect(svc.settings().language).toBe('pt-BR')
  })
})

describe('reading back a damaged or hand-edited store', () => {
  const valid = {
    id: 'ok',
    name: 'OK',
    kind: 'live',
    baseUrl: 'https://depix.example',
    network: 'liquid',
    rateLimits: {},
    partnerRateBps: 100,
    auth: { kind: 'client_credentials', clientId: 'c' },
    createdAt: '2025-01-01T00:00:00.000Z',
  }

  it('drops invalid entries with warnings, keeps the rest, and never crashes', () => {
    writeStore({
      profiles: [
        valid,
        { ...valid, id: 'insecure', name: 'Insecure', baseUrl: 'http://depix.example' },
        { ...valid, id: 'sandbox', kind: 'sandbox', name: 'Fake' },
        { ...valid, name: 'Duplicate' },
        'garbage',
        null,
        { ...valid, id: 'with-secret', name: 'With secret', clientSecret: SECRET },
      ],
      settings: { language: 'klingon', csvDelimiter: ',', activeProfileId: 'insecure', future: 1 },
    })
    const { svc } = open()
    expect(svc.list().map((p) => p.id)).toEqual(['sandbox', 'ok', 'with-secret'])
    expect(JSON.stringify(svc.list())).not.toContain(SECRET)
    expect(svc.warnings()).toEqual([
      { code: 'profile_dropped', index: 1, id: 'insecure', fields: { baseUrl: 'base_url_https_required' } },
      { code: 'profile_dropped', index: 2, id: 'sandbox', fields: { kind: 'invalid_value' } },
      { code: 'profile_duplicate_id', index: 3, id: 'ok' },
      { code: 'profile_dropped', index: 4, fields: { _form: 'invalid_value' } },
      { code: 'profile_dropped', index: 5, fields: { _form: 'invalid_value' } },
      { code: 'setting_reset', field: 'language' },
      { code: 'active_profile_missing' },
    ])
    expect(svc.settings()).toEqual({
      language: 'pt-BR',
      activeProfileId: 'sandbox',
      csvDelimiter: ',',
      csvLocale: 'pt-BR',
      notifications: true,
      liveConfirmAboveCents: 1_000_000,
    })
    expect(svc.active().id).toBe('sandbox')
  })

  it('keeps rejected entries and unknown settings in the file for a repair by hand, and does not reuse their ids', () => {
    const broken = { ...valid, id: 'conta-principal', name: 'Broken', baseUrl: 'http://depix.example' }
    writeStore({ profiles: [broken], settings: { future: { x: 1 } } })
    const { svc } = open()
    const p = svc.addLive(clientInput)
    expect(p.id).toBe('conta-principal-2')
    svc.updateSettings({ language: 'en' })
    const saved = JSON.parse(storeText())
    expect(saved.profiles).toContainEqual(broken)
    expect(saved.settings.future).toEqual({ x: 1 })
  })

  it('survives a store whose profiles or settings are the wrong type', () => {
    writeStore({ profiles: { a: 1 }, settings: [1, 2] })
    const { svc } = open()
    expect(svc.list().map((p) => p.id)).toEqual(['sandbox'])
    expect(svc.warnings()).toEqual([{ code: 'profiles_not_a_list' }, { code: 'settings_not_an_object' }])
    expect(svc.settings().language).toBe('pt-BR')
  })

  it('warnings never quote stored values', () => {
    writeStore({
      profiles: [{ ...valid, id: SECRET, auth: { kind: 'client_credentials', clientId: SECRET } }],
    })
    const { svc } = open()
    expect(svc.warnings()).toHaveLength(1)
    expect(JSON.stringify(svc.warnings())).not.toContain(SECRET)
  })
})
