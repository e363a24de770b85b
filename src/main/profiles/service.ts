/**
 * Connection profiles and settings. Electron-free. Records live in a `KeyValueStore` ('profiles', 'settings');
 * secrets live in the `Vault` under `profile:<id>:clientSecret` or `profile:<id>:legacyToken` and never in a
 * record. Everything read back from the store is validated: a damaged or hand-edited entry is left out of the
 * view with a warning (and kept in the file for whoever wants to repair it); it never crashes the app.
 */
import type { z } from 'zod'
import {
  credentialsInputSchema,
  DEFAULT_PARTNER_RATE_BPS,
  DEFAULT_SETTINGS,
  isLoopbackHost,
  newLiveProfileInputSchema,
  normalizeBaseUrl,
  profileIssueCodes,
  profileSchema,
  profileUpdateSchema,
  PROFILE_ID_PATTERN,
  SANDBOX_PENDING_BASE_URL,
  SANDBOX_PROFILE_ID,
  settingsPatchSchema,
  settingsSchema,
  slugifyProfileName,
  type CredentialsInput,
  type LiquidNetwork,
  type NewLiveProfileInput,
  type Profile,
  type ProfileMessageCode,
  type ProfileUpdate,
  type PublicProfile,
  type RateLimits,
  type Settings,
  type SettingsPatch,
} from '../../shared/profile'
import type { TeamLedgerSettings, TeamLedgerView } from '../../shared/team-ledger'
import { profileSecretKey, type SecretKey, type Vault } from '../secrets/vault'
import type { KeyValueStore } from './store'
import { createTeamLedgers, type TeamLedgerWarning } from './team-ledger'

export const PROFILES_KEY = 'profiles'
export const SETTINGS_KEY = 'settings'
/** What the operator set on the built-in Sandbox profile (it has no stored record): its default refund address. */
export const SANDBOX_DEFAULTS_KEY = 'sandboxProfile'
export const SANDBOX_PROFILE_NAME = 'Sandbox'
/**
 * The sandbox simulates the real, mainnet-only API, so its addresses are mainnet addresses (the issue requires
 * real, valid ones). They belong to nobody: the funding page says so loudly on the sandbox profile.
 */
export const SANDBOX_DEFAULT_NETWORK: LiquidNetwork = 'liquid'

/** What the running embedded sandbox tells us about itself; only `baseUrl` is required. */
export interface SandboxInfo {
  baseUrl: string
  clientId?: string
  network?: LiquidNetwork
  partnerRateBps?: number
  assetId?: string
  /** The embedded sandbox's own allowances (raised in tests): the Sandbox profile's limiter follows them. */
  rateLimits?: RateLimits
}

export type ProfileCredentials =
  | { kind: 'client_credentials'; clientId: string; clientSecret: string }
  | { kind: 'legacy_token'; token: string }

/** No stored value is ever quoted: only positions, ids that are valid slugs, field paths and message codes. */
export type ProfileWarning =
  | { code: 'profiles_not_a_list' }
  | { code: 'profile_dropped'; index: number; id?: string; fields: Record<string, ProfileMessageCode> }
  | { code: 'profile_duplicate_id'; index: number; id: string }
  | { code: 'settings_not_an_object' }
  | { code: 'setting_reset'; field: string }
  | { code: 'active_profile_missing' }
  | TeamLedgerWarning

export type ProfileErrorCode = 'invalid_input' | 'not_found' | 'sandbox_readonly' | 'name_taken'

export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
    /** Field path → code from `profileMessages`, for the form. */
    readonly fields: Record<string, ProfileMessageCode> = {},
  ) {
    super(message)
    this.name = 'ProfileError'
  }
}

export interface ProfileService {
  /** The built-in Sandbox profile first, then the live ones in creation order. */
  list(): PublicProfile[]
  get(id: string): Profile | null
  active(): Profile
  setActive(id: string): Profile
  addLive(input: NewLiveProfileInput): PublicProfile
  update(id: string, patch: ProfileUpdate): PublicProfile
  /**
   * The profile's default refund address (issue #14), or none (null). The caller has already checked it with
   * the Liquid helper for the profile's network; the previous value is returned for the audit entry.
   */
  setDefaultRefundAddress(
    id: string,
    address: string | null,
  ): { profile: PublicProfile; previous: string | null }
  /** Re-enter or replace a live profile's sign-in (new secret, rotated credential, or a switch of kind). */
  setCredentials(id: string, input: CredentialsInput): PublicProfile
  /** Deletes the profile's secrets too. The Sandbox profile cannot be removed. */
  remove(id: string): void
  /** Main-only, for building the API client. Null for the Sandbox profile, an unknown id or a missing secret. */
  credentials(id: string): ProfileCredentials | null
  settings(): Settings
  updateSettings(patch: SettingsPatch): Settings
  /** What was found wrong in the store when the service opened. */
  warnings(): readonly ProfileWarning[]
  /** The profile's team ledger connection as the renderer may see it (issue #16): never the password. */
  teamLedger(id: string): TeamLedgerView
  /**
   * Validates and stores the profile's team ledger settings, and the role's password when given; without one the
   * stored password is kept only for the same server, role and TLS (else `TeamSettingsRefusal` password_required).
   */
  saveTeamLedger(id: string, settings: unknown, password?: string): TeamLedgerView
  /** Back to this computer's ledger: the settings and the stored password are deleted. */
  forgetTeamLedger(id: string): TeamLedgerView
  /** The password to try `settings` with: the given one, else the stored one if `settings` is its server. */
  teamLedgerPassword(id: string, settings: TeamLedgerSettings, password?: string): string | null
  /** Main-only: what the runtime connects with; null when the profile uses this computer's ledger. */
  teamLedgerConnection(profileId: string): { settings: TeamLedgerSettings; password: string } | null
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function validSlug(v: unknown): string | undefined {
  return typeof v === 'string' && PROFILE_ID_PATTERN.test(v) ? v : undefined
}

function sameName(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase()
}

function invalidInput(error: z.ZodError): ProfileError {
  return new ProfileError('invalid_input', 'Invalid profile input', profileIssueCodes(error))
}

function secretKeyFor(p: Profile): SecretKey {
  return profileSecretKey(p.id, p.auth.kind === 'client_credentials' ? 'clientSecret' : 'legacyToken')
}

export function createProfileService(o: {
  store: KeyValueStore
  vault: Vault
  /** The embedded sandbox, once started; null before. */
  sandbox: () => SandboxInfo | null
  now?: () => Date
}): ProfileService {
  const now = o.now ?? (() => new Date())
  const startedAt = now().toISOString()
  const warnings: ProfileWarning[] = []

  // ---- load and validate what the store holds ----
  const profiles: Profile[] = []
  /** Entries we could not accept, written back untouched so a repair by hand is still possible. */
  const rejected: unknown[] = []
  const rawProfiles = o.store.get(PROFILES_KEY)
  if (rawProfiles !== undefined && !Array.isArray(rawProfiles)) {
    warnings.push({ code: 'profiles_not_a_list' })
  }
  for (const [index, raw] of (Array.isArray(rawProfiles) ? rawProfiles : []).entries()) {
    const parsed = profileSchema.safeParse(raw)
    const rawId = isPlainObject(raw) ? validSlug(raw['id']) : undefined
    if (!parsed.success || parsed.data.kind !== 'live') {
      const fields = parsed.success ? { kind: 'invalid_value' as const } : profileIssueCodes(parsed.error)
      warnings.push({ code: 'profile_dropped', index, ...(rawId ? { id: rawId } : {}), fields })
      rejected.push(raw)
    } else if (profiles.some((p) => p.id === parsed.data.id)) {
      warnings.push({ code: 'profile_duplicate_id', index, id: parsed.data.id })
      rejected.push(raw)
    } else {
      profiles.push(parsed.data)
    }
  }
  // Ids of rejected entries stay reserved: their secrets may still be in the vault, waiting for the repair.
  const reservedIds = new Set(rejected.map((r) => (isPlainObject(r) ? validSlug(r['id']) : undefined)))

  let settingsExtras: Record<string, unknown> = {}
  let settings: Settings = { ...DEFAULT_SETTINGS }
  const rawSettings = o.store.get(SETTINGS_KEY)
  if (isPlainObject(rawSettings)) {
    const shape = settingsSchema.shape
    const known = new Set(Object.keys(shape))
    // Unknown keys are a newer version's settings: kept, so a downgrade does not erase them.
    settingsExtras = Object.fromEntries(Object.entries(rawSettings).filter(([k]) => !known.has(k)))
    const next: Record<string, unknown> = {}
    for (const field of known) {
      const value = rawSettings[field]
      if (value === undefined) continue
      const r = shape[field as keyof typeof shape].safeParse(value)
      if (r.success) next[field] = r.data
      else warnings.push({ code: 'setting_reset', field })
    }
    settings = settingsSchema.parse(next)
  } else if (rawSettings !== undefined) {
    warnings.push({ code: 'settings_not_an_object' })
  }
  if (
    settings.activeProfileId !== SANDBOX_PROFILE_ID &&
    !profiles.some((p) => p.id === settings.activeProfileId)
  ) {
    warnings.push({ code: 'active_profile_missing' })
    settings = { ...settings, activeProfileId: SANDBOX_PROFILE_ID }
  }

  const teams = createTeamLedgers({ store: o.store, vault: o.vault })
  warnings.push(...teams.warnings())

  const rawSandbox = o.store.get(SANDBOX_DEFAULTS_KEY)
  let sandboxRefund: string | undefined =
    isPlainObject(rawSandbox) &&
    typeof rawSandbox['defaultRefundAddress'] === 'string' &&
    rawSandbox['defaultRefundAddress'].length <= 200
      ? rawSandbox['defaultRefundAddress']
      : undefined

  // ---- helpers ----
  function sandboxProfile(): Profile {
    let info: SandboxInfo | null = null
    try {
      info = o.sandbox()
    } catch {
      info = null
    }
    // A sandbox reporting something unusable must not take the profile list down: fall back to "not started".
    return profileSchema.safeParse(sandboxCandidate(info)).data ?? profileSchema.parse(sandboxCandidate(null))
  }

  function sandboxCandidate(info: SandboxInfo | null): unknown {
    const baseUrl = info ? normalizeBaseUrl(info.baseUrl) : null
    return {
      id: SANDBOX_PROFILE_ID,
      name: SANDBOX_PROFILE_NAME,
      kind: 'sandbox',
      // The embedded sandbox only ever listens on loopback; anything else is not it.
      baseUrl: baseUrl && isLoopbackHost(new URL(baseUrl).hostname) ? baseUrl : SANDBOX_PENDING_BASE_URL,
      network: info?.network ?? SANDBOX_DEFAULT_NETWORK,
      rateLimits: info?.rateLimits ?? {},
      partnerRateBps: info?.partnerRateBps ?? DEFAULT_PARTNER_RATE_BPS,
      ...(info?.assetId === undefined ? {} : { assetId: info.assetId }),
      ...(sandboxRefund === undefined ? {} : { defaultRefundAddress: sandboxRefund }),
      auth: { kind: 'client_credentials', clientId: info?.clientId ?? SANDBOX_PROFILE_ID },
      createdAt: startedAt,
    }
  }

  function findLive(id: string): Profile | undefined {
    return profiles.find((p) => p.id === id)
  }

  /** Team ledger settings belong to any existing profile, the built-in Sandbox included (a team can rehearse). */
  function requireProfile(id: string): void {
    if (id !== SANDBOX_PROFILE_ID && !findLive(id)) throw new ProfileError('not_found', 'No such profile')
  }

  function requireLive(id: string): Profile {
    if (id === SANDBOX_PROFILE_ID) {
      throw new ProfileError('sandbox_readonly', 'The Sandbox profile is built in')
    }
    const p = findLive(id)
    if (!p) throw new ProfileError('not_found', 'No such profile')
    return p
  }

  function toPublic(p: Profile): PublicProfile {
    const hasSecret = p.kind === 'sandbox' ? true : o.vault.get(secretKeyFor(p)) !== null
    return { ...structuredClone(p), hasSecret }
  }

  function persistProfiles(next: Profile[]): void {
    o.store.set(PROFILES_KEY, [...next, ...rejected])
    profiles.splice(0, profiles.length, ...next)
  }

  function persistSettings(next: Settings): void {
    o.store.set(SETTINGS_KEY, { ...settingsExtras, ...next })
    settings = next
  }

  function checkNameFree(name: string, exceptId?: string): void {
    const taken =
      sameName(name, SANDBOX_PROFILE_NAME) ||
      profiles.some((p) => p.id !== exceptId && sameName(p.name, name))
    if (taken) throw new ProfileError('name_taken', 'Profile name already used', { name: 'name_taken' })
  }

  function newId(name: string): string {
    const base = slugifyProfileName(name)
    const used = (id: string): boolean =>
      id === SANDBOX_PROFILE_ID || reservedIds.has(id) || profiles.some((p) => p.id === id)
    if (!used(base)) return base
    for (let n = 2; ; n += 1) {
      const id = `${base}-${n}`
      if (!used(id)) return id
    }
  }

  /** Stores the secret under the key its kind uses; returns what to do to undo it. */
  function putSecret(id: string, creds: z.output<typeof credentialsInputSchema>): () => void {
    const key = profileSecretKey(id, creds.kind === 'client_credentials' ? 'clientSecret' : 'legacyToken')
    const previous = o.vault.get(key)
    o.vault.set(key, creds.kind === 'client_credentials' ? creds.clientSecret : creds.token)
    return () => {
      if (previous === null) o.vault.delete(key)
      else o.vault.set(key, previous)
    }
  }

  function authOf(creds: z.output<typeof credentialsInputSchema>): Profile['auth'] {
    return creds.kind === 'client_credentials'
      ? { kind: 'client_credentials', clientId: creds.clientId }
      : { kind: 'legacy_token' }
  }

  function deleteSecrets(id: string, except?: SecretKey): void {
    for (const kind of ['clientSecret', 'legacyToken'] as const) {
      const key = profileSecretKey(id, kind)
      if (key !== except) o.vault.delete(key)
    }
  }

  // ---- the service ----
  return {
    list() {
      return [toPublic(sandboxProfile()), ...profiles.map(toPublic)]
    },

    get(id) {
      if (id === SANDBOX_PROFILE_ID) return sandboxProfile()
      const p = findLive(id)
      return p ? structuredClone(p) : null
    },

    active() {
      const p = findLive(settings.activeProfileId)
      return p ? structuredClone(p) : sandboxProfile()
    },

    setActive(id) {
      const profile = id === SANDBOX_PROFILE_ID ? sandboxProfile() : findLive(id)
      if (!profile) throw new ProfileError('not_found', 'No such profile', { activeProfileId: 'not_found' })
      if (settings.activeProfileId !== id) persistSettings({ ...settings, activeProfileId: id })
      return structuredClone(profile)
    },

    addLive(input) {
      const parsed = newLiveProfileInputSchema.safeParse(input)
      if (!parsed.success) throw invalidInput(parsed.error)
      const v = parsed.data
      checkNameFree(v.name)
      const id = newId(v.name)
      const profile = profileSchema.parse({
        id,
        name: v.name,
        kind: 'live',
        baseUrl: v.baseUrl,
        network: v.network,
        rateLimits: v.rateLimits ?? {},
        partnerRateBps: v.partnerRateBps ?? DEFAULT_PARTNER_RATE_BPS,
        ...(v.assetId === undefined ? {} : { assetId: v.assetId }),
        auth: authOf(v.auth),
        createdAt: now().toISOString(),
      } satisfies Profile)
      // A secret left behind by an earlier profile of the same id must never sign this one in.
      deleteSecrets(id)
      // The treasury wallet's descriptor (issue #27) goes with the profile; rotating credentials keeps it.
      o.vault.delete(profileSecretKey(id, 'walletDescriptor'))
      teams.forget(id)
      // Secret first: the profile never appears without it; if the record cannot be saved, the secret goes.
      putSecret(id, v.auth)
      try {
        persistProfiles([...profiles, profile])
      } catch (e) {
        deleteSecrets(id)
        throw e
      }
      return toPublic(profile)
    },

    update(id, patch) {
      const parsed = profileUpdateSchema.safeParse(patch)
      if (!parsed.success) throw invalidInput(parsed.error)
      const current = requireLive(id)
      const p = parsed.data
      if (p.name !== undefined) checkNameFree(p.name, id)
      // null = back to the network's public Esplora: the field goes, so the default can change with the app.
      const { esploraUrl: previousEsplora, ...rest } = current
      const esploraUrl = p.esploraUrl === undefined ? previousEsplora : (p.esploraUrl ?? undefined)
      const next = profileSchema.parse({
        ...rest,
        ...(esploraUrl === undefined ? {} : { esploraUrl }),
        ...(p.name === undefined ? {} : { name: p.name }),
        ...(p.rateLimits === undefined ? {} : { rateLimits: p.rateLimits }),
        ...(p.partnerRateBps === undefined ? {} : { partnerRateBps: p.partnerRateBps }),
        ...(p.walletAddressPolicy === undefined ? {} : { walletAddressPolicy: p.walletAddressPolicy }),
      })
      persistProfiles(profiles.map((x) => (x.id === id ? next : x)))
      return toPublic(next)
    },

    setDefaultRefundAddress(id, address) {
      if (address !== null && (address === '' || address.length > 200)) {
        throw new ProfileError('invalid_input', 'Invalid refund address', {
          defaultRefundAddress: 'invalid_value',
        })
      }
      if (id === SANDBOX_PROFILE_ID) {
        const previous = sandboxRefund ?? null
        o.store.set(SANDBOX_DEFAULTS_KEY, address === null ? {} : { defaultRefundAddress: address })
        sandboxRefund = address ?? undefined
        return { profile: toPublic(sandboxProfile()), previous }
      }
      const current = requireLive(id)
      const { defaultRefundAddress: previous, ...rest } = current
      const next = profileSchema.parse(address === null ? rest : { ...rest, defaultRefundAddress: address })
      persistProfiles(profiles.map((x) => (x.id === id ? next : x)))
      return { profile: toPublic(next), previous: previous ?? null }
    },

    setCredentials(id, input) {
      const current = requireLive(id)
      const parsed = credentialsInputSchema.safeParse(input)
      if (!parsed.success) {
        throw new ProfileError('invalid_input', 'Invalid credentials input', prefixed('auth', parsed.error))
      }
      const next = profileSchema.parse({ ...current, auth: authOf(parsed.data) })
      const undo = putSecret(id, parsed.data)
      try {
        persistProfiles(profiles.map((x) => (x.id === id ? next : x)))
      } catch (e) {
        undo()
        throw e
      }
      // Only now: until the record said otherwise, the old kind's secret was the one in use.
      deleteSecrets(id, secretKeyFor(next))
      return toPublic(next)
    },

    remove(id) {
      requireLive(id)
      // Secrets first: if anything fails after, the profile is still listed and the removal can be retried.
      deleteSecrets(id)
      // The treasury wallet's descriptor (issue #27) goes with the profile; rotating credentials keeps it.
      o.vault.delete(profileSecretKey(id, 'walletDescriptor'))
      teams.forget(id)
      persistProfiles(profiles.filter((p) => p.id !== id))
      if (settings.activeProfileId === id)
        persistSettings({ ...settings, activeProfileId: SANDBOX_PROFILE_ID })
    },

    credentials(id) {
      const p = id === SANDBOX_PROFILE_ID ? undefined : findLive(id)
      if (!p) return null
      const secret = o.vault.get(secretKeyFor(p))
      if (secret === null) return null
      return p.auth.kind === 'client_credentials'
        ? { kind: 'client_credentials', clientId: p.auth.clientId, clientSecret: secret }
        : { kind: 'legacy_token', token: secret }
    },

    settings() {
      return { ...settings }
    },

    updateSettings(patch) {
      const parsed = settingsPatchSchema.safeParse(patch)
      if (!parsed.success) throw invalidInput(parsed.error)
      const p = parsed.data
      if (
        p.activeProfileId !== undefined &&
        p.activeProfileId !== SANDBOX_PROFILE_ID &&
        !findLive(p.activeProfileId)
      ) {
        throw new ProfileError('not_found', 'No such profile', { activeProfileId: 'not_found' })
      }
      const next = settingsSchema.parse({ ...settings, ...stripUndefined(p) })
      persistSettings(next)
      return { ...next }
    },

    warnings() {
      return Object.freeze([...warnings])
    },

    teamLedger(id) {
      requireProfile(id)
      return teams.view(id)
    },

    saveTeamLedger(id, settings, password) {
      requireProfile(id)
      return teams.save(id, settings, password)
    },

    forgetTeamLedger(id) {
      requireProfile(id)
      teams.forget(id)
      return teams.view(id)
    },

    teamLedgerPassword(id, settings, password) {
      requireProfile(id)
      return teams.passwordFor(id, settings, password)
    },

    teamLedgerConnection(profileId) {
      if (profileId !== SANDBOX_PROFILE_ID && !findLive(profileId)) return null
      return teams.connection(profileId)
    },
  }
}

function prefixed(prefix: string, error: z.ZodError): Record<string, ProfileMessageCode> {
  const codes = profileIssueCodes({
    issues: error.issues.map((i) => ({ path: [prefix, ...i.path], message: i.message })),
  })
  return codes
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
