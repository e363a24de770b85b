import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LIQUID_NETWORKS } from '../../src/main/liquid/networks'
import {
  baseUrlProblem,
  credentialsInputSchema,
  DEFAULT_SETTINGS,
  describeProfileIssues,
  isLoopbackHost,
  liquidNetworkSchema,
  newLiveProfileInputSchema,
  normalizeBaseUrl,
  PROFILE_ID_PATTERN,
  profileIssueCodes,
  profileMessages,
  profileSchema,
  profileUpdateSchema,
  publicProfileSchema,
  SANDBOX_PENDING_BASE_URL,
  settingsPatchSchema,
  settingsSchema,
  slugifyProfileName,
  type Profile,
} from '../../src/shared/profile'

const SECRET = 'cs_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0'

const live: Profile = {
  id: 'acme',
  name: 'Acme',
  kind: 'live',
  baseUrl: 'https://depix.example',
  network: 'liquid',
  rateLimits: {},
  partnerRateBps: 100,
  auth: { kind: 'client_credentials', clientId: 'acme-treasury' },
  createdAt: '2025-01-01T00:00:00.000Z',
}

const form = {
  name: '  Conta principal ',
  baseUrl: 'https://depix.example/',
  network: 'liquid',
  auth: { kind: 'client_credentials', clientId: 'acme-treasury', clientSecret: SECRET },
}

function codes(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, v: unknown) {
  const r = schema.safeParse(v)
  if (r.success) return null
  return profileIssueCodes(r.error as { issues: { path: PropertyKey[]; message: string }[] })
}

describe('liquidNetworkSchema', () => {
  it('has exactly the networks main knows', () => {
    expect([...liquidNetworkSchema.options]).toEqual([...LIQUID_NETWORKS])
  })
})

describe('base URLs', () => {
  it.each([
    ['https://depix.example', 'live', null],
    ['https://depix.example:8443/prefix', 'live', null],
    ['http://127.0.0.1:4010', 'live', null],
    ['http://localhost:4010', 'live', null],
    ['http://[::1]:4010', 'live', null],
    ['http://depix.example', 'live', 'base_url_https_required'],
    ['http://192.168.0.10', 'live', 'base_url_https_required'],
    ['http://127.0.0.1.nip.io', 'live', 'base_url_https_required'],
    ['http://localhost.evil.example', 'live', 'base_url_https_required'],
    ['http://depix.example', 'sandbox', null],
    ['', 'live', 'base_url_required'],
    ['depix.example', 'live', 'base_url_invalid'],
    ['ftp://depix.example', 'live', 'base_url_invalid'],
    ['javascript:alert(1)', 'live', 'base_url_invalid'],
    ['https://user:pass@depix.example', 'live', 'base_url_credentials'],
    ['https://depix.example/?x=1', 'live', 'base_url_query'],
    ['https://depix.example/#x', 'live', 'base_url_query'],
    ['https://depix.example/api', 'live', 'base_url_api_suffix'],
    ['https://depix.example/api/', 'live', 'base_url_api_suffix'],
  ] as const)('%s as %s → %s', (url, kind, expected) => {
    expect(baseUrlProblem(url, kind)).toBe(expected)
  })

  it('normalises to origin + path without trailing slash', () => {
    expect(normalizeBaseUrl(' HTTPS://Depix.Example:443/ ')).toBe('https://depix.example')
    expect(normalizeBaseUrl('https://depix.example/v/')).toBe('https://depix.example/v')
    expect(normalizeBaseUrl('mailto:x@y')).toBeNull()
  })

  it('knows loopback hosts', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('127.10.0.3')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
    expect(isLoopbackHost('128.0.0.1')).toBe(false)
    expect(isLoopbackHost('localhost.example')).toBe(false)
  })

  it('the pending sandbox URL is a valid sandbox base URL', () => {
    expect(baseUrlProblem(SANDBOX_PENDING_BASE_URL, 'sandbox')).toBeNull()
  })
})

describe('profileSchema (records read back from the store)', () => {
  it('accepts a live profile and defaults the partner rate to 1%', () => {
    const { partnerRateBps: _, ...noRate } = live
    expect(profileSchema.parse(noRate).partnerRateBps).toBe(100)
  })

  it('refuses a live record with plain http to a remote host', () => {
    expect(codes(profileSchema, { ...live, baseUrl: 'http://depix.example' })).toEqual({
      baseUrl: 'base_url_https_required',
    })
  })

  it('refuses a base URL that is not in stored (normalised) form', () => {
    expect(codes(profileSchema, { ...live, baseUrl: 'https://depix.example/' })).toEqual({
      baseUrl: 'base_url_invalid',
    })
  })

  it('ties the sandbox id and kind together', () => {
    expect(codes(profileSchema, { ...live, id: 'sandbox' })).toEqual({ kind: 'invalid_value' })
    expect(codes(profileSchema, { ...live, kind: 'sandbox' })).toEqual({ kind: 'invalid_value' })
  })

  it('checks rate limits, partner rate, asset id, ids and dates', () => {
    expect(codes(profileSchema, { ...live, rateLimits: { withdraw: 0 } })).toEqual({
      'rateLimits.withdraw': 'rate_limit_invalid',
    })
    expect(codes(profileSchema, { ...live, rateLimits: { withdraw: 1.5 } })).not.toBeNull()
    expect(codes(profileSchema, { ...live, rateLimits: { nope: 3 } })).not.toBeNull()
    expect(profileSchema.parse({ ...live, rateLimits: { withdraw: 5, ping: 2 } }).rateLimits).toEqual({
      withdraw: 5,
      ping: 2,
    })
    expect(codes(profileSchema, { ...live, partnerRateBps: 10_000 })).toEqual({
      partnerRateBps: 'partner_rate_invalid',
    })
    expect(codes(profileSchema, { ...live, assetId: 'ab' })).toEqual({ assetId: 'asset_id_invalid' })
    expect(profileSchema.parse({ ...live, assetId: 'AB'.repeat(32) }).assetId).toBe('ab'.repeat(32))
    expect(codes(profileSchema, { ...live, id: 'Acme' })).toEqual({ id: 'profile_id_invalid' })
    expect(codes(profileSchema, { ...live, createdAt: 'yesterday' })).toEqual({ createdAt: 'invalid_value' })
  })

  it('strips fields it does not know, so a hand-added secret never leaves main', () => {
    const parsed = publicProfileSchema.parse({ ...live, hasSecret: true, clientSecret: SECRET })
    expect(JSON.stringify(parsed)).not.toContain(SECRET)
    expect(parsed.hasSecret).toBe(true)
  })
})

describe('newLiveProfileInputSchema (the add form)', () => {
  it('accepts a client-credentials profile, trimming and normalising', () => {
    const v = newLiveProfileInputSchema.parse(form)
    expect(v.name).toBe('Conta principal')
    expect(v.baseUrl).toBe('https://depix.example')
    expect(v.auth).toEqual({ kind: 'client_credentials', clientId: 'acme-treasury', clientSecret: SECRET })
  })

  it('accepts a legacy token, with or without "Bearer "', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwIn0.c2ln'
    for (const pasted of [token, `Bearer ${token}\n`]) {
      const v = newLiveProfileInputSchema.parse({ ...form, auth: { kind: 'legacy_token', token: pasted } })
      expect(v.auth).toEqual({ kind: 'legacy_token', token })
    }
  })

  it('reports each field with a stable code', () => {
    expect(
      codes(newLiveProfileInputSchema, {
        name: '',
        baseUrl: 'http://depix.example',
        network: 'bitcoin',
        auth: { kind: 'client_credentials', clientId: ' ', clientSecret: '' },
        partnerRateBps: -1,
      }),
    ).toEqual({
      name: 'name_required',
      baseUrl: 'base_url_https_required',
      network: 'network_invalid',
      'auth.clientId': 'client_id_required',
      'auth.clientSecret': 'client_secret_required',
      partnerRateBps: 'partner_rate_invalid',
    })
    expect(codes(newLiveProfileInputSchema, { ...form, auth: { kind: 'password' } })).toEqual({
      'auth.kind': 'auth_kind_invalid',
    })
    expect(
      codes(newLiveProfileInputSchema, { ...form, auth: { kind: 'legacy_token', token: 'abc' } }),
    ).toEqual({
      'auth.token': 'token_invalid',
    })
    expect(codes(newLiveProfileInputSchema, { ...form, name: 'a\nb' })).toEqual({ name: 'name_characters' })
    expect(codes(newLiveProfileInputSchema, { ...form, name: 'x'.repeat(61) })).toEqual({
      name: 'name_too_long',
    })
    expect(codes(newLiveProfileInputSchema, { ...form, extra: 1 })).toEqual({ _form: 'unknown_field' })
    expect(
      codes(newLiveProfileInputSchema, { ...form, auth: { ...form.auth, clientSecret: 'has space' } }),
    ).toEqual({ 'auth.clientSecret': 'client_secret_invalid' })
  })

  it('never quotes the secret in its errors', () => {
    const bad = [
      { ...form, baseUrl: 'nope' },
      { ...form, auth: { ...form.auth, clientSecret: `${SECRET} ${SECRET}` } },
      { ...form, auth: { kind: 'legacy_token', token: SECRET } },
      { ...form, auth: { ...form.auth, extra: SECRET } },
    ]
    for (const input of bad) {
      const r = newLiveProfileInputSchema.safeParse(input)
      expect(r.success).toBe(false)
      const text =
        JSON.stringify(r.error) + String(r.error) + JSON.stringify(describeProfileIssues(r.error!, 'en'))
      expect(text).not.toContain(SECRET)
    }
  })

  it('translates codes, never zod English', () => {
    const r = newLiveProfileInputSchema.safeParse({ ...form, baseUrl: 'http://depix.example' })
    expect(describeProfileIssues(r.error!)).toEqual({
      baseUrl: profileMessages.base_url_https_required['pt-BR'],
    })
    expect(describeProfileIssues(r.error!, 'en')).toEqual({
      baseUrl: profileMessages.base_url_https_required.en,
    })
  })

  it('credentialsInputSchema is strict about its kind', () => {
    expect(codes(credentialsInputSchema, { kind: 'legacy_token', token: 'a.b.c', clientId: 'x' })).toEqual({
      _form: 'unknown_field',
    })
  })
})

describe('profileUpdateSchema', () => {
  it('allows name, rate limits and partner rate only', () => {
    expect(profileUpdateSchema.parse({ name: ' B ', rateLimits: {}, partnerRateBps: 0 })).toEqual({
      name: 'B',
      rateLimits: {},
      partnerRateBps: 0,
    })
    expect(codes(profileUpdateSchema, { baseUrl: 'https://x.example' })).toEqual({ _form: 'unknown_field' })
  })
})

describe('settings', () => {
  it('defaults: pt-BR, sandbox active, ; delimiter, pt-BR CSV, notifications on, desk limit R$ 10.000,00', () => {
    expect(settingsSchema.parse({})).toEqual({
      language: 'pt-BR',
      activeProfileId: 'sandbox',
      csvDelimiter: ';',
      csvLocale: 'pt-BR',
      notifications: true,
      liveConfirmAboveCents: 1_000_000,
    })
    expect(DEFAULT_SETTINGS).toEqual(settingsSchema.parse({}))
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true)
  })

  it('validates patches strictly', () => {
    expect(settingsPatchSchema.parse({ language: 'en', csvDelimiter: ',' })).toEqual({
      language: 'en',
      csvDelimiter: ',',
    })
    expect(codes(settingsPatchSchema, { language: 'fr' })).toEqual({ language: 'language_invalid' })
    expect(codes(settingsPatchSchema, { csvDelimiter: '\t' })).toEqual({
      csvDelimiter: 'csv_delimiter_invalid',
    })
    expect(codes(settingsPatchSchema, { theme: 'dark' })).toEqual({ _form: 'unknown_field' })
    expect(codes(settingsPatchSchema, { activeProfileId: '../x' })).toEqual({
      activeProfileId: 'profile_id_invalid',
    })
  })
})

describe('profileMessages', () => {
  it('has both languages for every code', () => {
    for (const [code, text] of Object.entries(profileMessages)) {
      expect(text['pt-BR'].trim(), code).not.toBe('')
      expect(text.en.trim(), code).not.toBe('')
    }
  })
})

describe('slugifyProfileName', () => {
  it('makes ids from names', () => {
    expect(slugifyProfileName('Conta Principal — São Paulo')).toBe('conta-principal-sao-paulo')
    expect(slugifyProfileName('***')).toBe('profile')
    expect(slugifyProfileName('Sandbox')).toBe('profile')
  })

  it('always yields a valid id with room for a numeric suffix', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        const slug = slugifyProfileName(name)
        expect(slug).toMatch(PROFILE_ID_PATTERN)
        expect(`${slug}-999`).toMatch(PROFILE_ID_PATTERN)
      }),
    )
  })
})
