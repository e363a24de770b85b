/**
 * Connection profiles and app settings: the shapes main stores and the renderer shows. A profile never holds a
 * secret; the client_secret or legacy token lives in main's vault and only `hasSecret` crosses IPC. Every
 * refusal is a zod issue whose `message` is a stable code from `profileMessages`, so the UI translates codes and
 * never shows zod's own English.
 */
import { z } from 'zod'
import { commonFieldMessages } from './field-messages'
import { ENDPOINTS } from './api-limits'
import type { LocalizedText } from './pix-key'

/** Same values as main's `LiquidNetwork` (src/main/liquid); declared here because shared/ never imports main. */
export const liquidNetworkSchema = z.enum(['liquid', 'testnet', 'regtest'], { error: 'network_invalid' })
export type LiquidNetwork = z.infer<typeof liquidNetworkSchema>

export const SANDBOX_PROFILE_ID = 'sandbox'
/** Until the embedded sandbox is listening: port 0 cannot be connected to, so nothing is sent anywhere. */
export const SANDBOX_PENDING_BASE_URL = 'http://127.0.0.1:0'

export const PROFILE_KINDS = ['sandbox', 'live'] as const
export type ProfileKind = (typeof PROFILE_KINDS)[number]

export const LANGUAGES = ['pt-BR', 'en'] as const
export type Language = (typeof LANGUAGES)[number]

/** Lowercase slug; it is also part of vault key names (`profile:<id>:clientSecret`), hence no `:`. */
export const PROFILE_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/
export const PROFILE_ID_MAX_LENGTH = 48
export const PROFILE_NAME_MAX_LENGTH = 60
/** 100 bps = 1%: the rate the fee preview uses until the partner's real rate is entered. */
export const DEFAULT_PARTNER_RATE_BPS = 100
/** Not in the API contract: a bound so a typo cannot turn the client-side limiter off. */
export const RATE_LIMIT_MAX_PER_MINUTE = 10_000
export const BASE_URL_MAX_LENGTH = 2048
export const CLIENT_ID_MAX_LENGTH = 256
/** The login body is at most 4 KiB (docs/API-CONTRACT.md#s5-2); a secret anywhere near that could never be sent. */
export const CLIENT_SECRET_MAX_LENGTH = 2048
export const LEGACY_TOKEN_MAX_LENGTH = 8192

export const profileMessages = {
  ...commonFieldMessages,
  name_required: { 'pt-BR': 'Dê um nome ao perfil.', en: 'Give the profile a name.' },
  name_too_long: {
    'pt-BR': `O nome pode ter no máximo ${PROFILE_NAME_MAX_LENGTH} caracteres.`,
    en: `The name can be at most ${PROFILE_NAME_MAX_LENGTH} characters long.`,
  },
  name_characters: {
    'pt-BR': 'O nome não pode conter quebras de linha nem caracteres de controle.',
    en: 'The name must not contain line breaks or control characters.',
  },
  name_taken: {
    'pt-BR': 'Já existe um perfil com esse nome.',
    en: 'A profile with this name already exists.',
  },
  base_url_required: { 'pt-BR': 'Informe o endereço da API.', en: 'Enter the API address.' },
  base_url_invalid: {
    'pt-BR': 'Endereço inválido. Use a forma https://servidor.exemplo.',
    en: 'Invalid address. Use the form https://server.example.',
  },
  base_url_https_required: {
    'pt-BR': 'Perfis reais exigem https:// (http:// só é aceito para este computador: localhost, 127.0.0.1).',
    en: 'Live profiles require https:// (http:// is accepted only for this computer: localhost, 127.0.0.1).',
  },
  base_url_credentials: {
    'pt-BR': 'O endereço não pode conter usuário ou senha. Informe as credenciais nos campos próprios.',
    en: 'The address must not contain a user name or password. Enter credentials in their own fields.',
  },
  base_url_query: {
    'pt-BR': 'O endereço não pode ter parâmetros (?…) nem fragmento (#…).',
    en: 'The address must not have parameters (?…) or a fragment (#…).',
  },
  base_url_api_suffix: {
    'pt-BR': 'Informe o endereço sem o /api final: o aplicativo o acrescenta.',
    en: 'Enter the address without the trailing /api: the app adds it.',
  },
  esplora_url_invalid: {
    'pt-BR': 'Endereço do Esplora inválido. Use a forma https://servidor.exemplo/liquid/api.',
    en: 'Invalid Esplora address. Use the form https://server.example/liquid/api.',
  },
  esplora_url_https_required: {
    'pt-BR': 'O Esplora exige https:// (http:// só é aceito para este computador: localhost, 127.0.0.1).',
    en: 'The Esplora requires https:// (http:// is accepted only for this computer: localhost, 127.0.0.1).',
  },
  esplora_url_credentials: {
    'pt-BR': 'O endereço do Esplora não pode conter usuário, senha, parâmetros (?…) nem fragmento (#…).',
    en: 'The Esplora address must not contain a user name, password, parameters (?…) or a fragment (#…).',
  },
  network_invalid: {
    'pt-BR': 'Escolha a rede: Liquid, Liquid Testnet ou Liquid Regtest.',
    en: 'Choose the network: Liquid, Liquid Testnet or Liquid Regtest.',
  },
  auth_kind_invalid: {
    'pt-BR': 'Escolha o tipo de acesso: credenciais de cliente ou token legado.',
    en: 'Choose the access type: client credentials or legacy token.',
  },
  client_id_required: { 'pt-BR': 'Informe o client_id.', en: 'Enter the client_id.' },
  client_id_invalid: {
    'pt-BR': 'client_id inválido: sem espaços, no máximo 256 caracteres.',
    en: 'Invalid client_id: no spaces, at most 256 characters.',
  },
  client_secret_required: { 'pt-BR': 'Informe o client_secret.', en: 'Enter the client_secret.' },
  client_secret_invalid: {
    'pt-BR': 'client_secret inválido: sem espaços, no máximo 2048 caracteres.',
    en: 'Invalid client_secret: no spaces, at most 2048 characters.',
  },
  token_required: { 'pt-BR': 'Cole o token legado.', en: 'Paste the legacy token.' },
  token_invalid: {
    'pt-BR': 'Não parece um token JWT (três partes separadas por pontos).',
    en: 'This does not look like a JWT (three parts separated by dots).',
  },
  rate_limit_invalid: {
    'pt-BR': `O limite por minuto deve ser um número inteiro de 1 a ${RATE_LIMIT_MAX_PER_MINUTE}.`,
    en: `The per-minute limit must be a whole number from 1 to ${RATE_LIMIT_MAX_PER_MINUTE}.`,
  },
  rate_limit_endpoint: { 'pt-BR': 'Endpoint desconhecido.', en: 'Unknown endpoint.' },
  partner_rate_invalid: {
    'pt-BR': 'A taxa do parceiro deve estar entre 0 e 99,99% (0 a 9999 pontos-base).',
    en: 'The partner rate must be between 0 and 99.99% (0 to 9999 basis points).',
  },
  asset_id_invalid: {
    'pt-BR': 'O id do ativo deve ter 64 caracteres hexadecimais.',
    en: 'The asset id must be 64 hexadecimal characters.',
  },
  language_invalid: { 'pt-BR': 'Idioma não suportado.', en: 'Unsupported language.' },
  csv_delimiter_invalid: { 'pt-BR': 'Use ; ou , como separador.', en: 'Use ; or , as the delimiter.' },
  profile_id_invalid: { 'pt-BR': 'Identificador de perfil inválido.', en: 'Invalid profile identifier.' },
  not_found: { 'pt-BR': 'Perfil não encontrado.', en: 'Profile not found.' },
  sandbox_readonly: {
    'pt-BR': 'O perfil Sandbox é embutido e não pode ser alterado nem removido.',
    en: 'The Sandbox profile is built in and cannot be changed or removed.',
  },
} as const satisfies Record<string, LocalizedText>

export type ProfileMessageCode = keyof typeof profileMessages

function isProfileMessageCode(code: string): code is ProfileMessageCode {
  return Object.hasOwn(profileMessages, code)
}

function objectError(iss: { code: string }): ProfileMessageCode {
  return iss.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_value'
}

/** `[::1]` is how the URL parser spells the IPv6 loopback host. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase()
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/**
 * The stored form of a base URL: origin plus path, no trailing `/`. Null when it is not an http(s) URL. The
 * client adds `/api` itself (docs/API-CLIENT.md), so this is the `{base_url}` of docs/API-CONTRACT.md#s1-8.
 */
export function normalizeBaseUrl(input: string): string | null {
  const url = parseUrl(input.trim())
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return null
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

function parseUrl(s: string): URL | null {
  try {
    return new URL(s)
  } catch {
    return null
  }
}

/** Null when `input` is acceptable as the base URL of a profile of this kind. */
export function baseUrlProblem(input: string, kind: ProfileKind): ProfileMessageCode | null {
  const s = input.trim()
  if (s === '') return 'base_url_required'
  if (s.length > BASE_URL_MAX_LENGTH) return 'base_url_invalid'
  const url = parseUrl(s)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    return 'base_url_invalid'
  }
  // A password in the URL would be stored in plain settings and shown in the UI: a secret outside the vault.
  if (url.username !== '' || url.password !== '') return 'base_url_credentials'
  if (url.search !== '' || url.hash !== '' || s.includes('?') || s.includes('#')) return 'base_url_query'
  if (/\/api\/*$/i.test(url.pathname)) return 'base_url_api_suffix'
  // Tokens and secrets travel to this host; plain http is only acceptable when it never leaves the machine.
  if (kind === 'live' && url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'base_url_https_required'
  return null
}

/**
 * The public Liquid Esplora of each live network, used by a profile that names none (issue #27). Privacy
 * trade-off: it sees the treasury's addresses queried from this computer's IP (said in Configurações).
 */
export const DEFAULT_ESPLORA: Readonly<Record<Exclude<LiquidNetwork, 'regtest'>, string>> = {
  liquid: 'https://blockstream.info/liquid/api',
  testnet: 'https://blockstream.info/liquidtestnet/api',
}

/**
 * Null when `input` is acceptable as a profile's Esplora base URL: https, or http to this computer only (the
 * addresses asked about reveal the treasury), no credentials, no query or fragment. Unlike the API base URL it is
 * taken as given, `/api` included (Esplora servers differ in where they mount it).
 */
export function esploraUrlProblem(input: string): ProfileMessageCode | null {
  const s = input.trim()
  if (s === '' || s.length > BASE_URL_MAX_LENGTH) return 'esplora_url_invalid'
  const url = parseUrl(s)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    return 'esplora_url_invalid'
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return 'esplora_url_credentials'
  }
  if (s.includes('?') || s.includes('#')) return 'esplora_url_credentials'
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'esplora_url_https_required'
  return null
}

/** A profile's Esplora URL: checked, then stored as origin + path without a trailing `/`. */
export const esploraUrlSchema = z
  .string({ error: 'esplora_url_invalid' })
  .superRefine((s, ctx) => {
    const problem = esploraUrlProblem(s)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .transform((s) => normalizeBaseUrl(s) ?? s)

/** Where top-up deliveries and refunds go: a fresh receive address of the wallet each time, or one per profile. */
export const WALLET_ADDRESS_POLICIES = ['fresh', 'fixed'] as const
export type WalletAddressPolicy = (typeof WALLET_ADDRESS_POLICIES)[number]
const walletAddressPolicySchema = z.enum(WALLET_ADDRESS_POLICIES, { error: 'invalid_value' })

const PRINTABLE_NO_SPACE = /^[\x21-\x7e]+$/
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/
// C0/C1 controls and line/paragraph separators: a name is shown on one line and written into exports.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

export const profileIdSchema = z
  .string({ error: 'profile_id_invalid' })
  .regex(PROFILE_ID_PATTERN, { error: 'profile_id_invalid' })

export const profileNameSchema = z
  .string({ error: 'name_required' })
  .trim()
  .superRefine((s, ctx) => {
    const problem: ProfileMessageCode | null =
      s === ''
        ? 'name_required'
        : s.length > PROFILE_NAME_MAX_LENGTH
          ? 'name_too_long'
          : CONTROL_CHARS.test(s)
            ? 'name_characters'
            : null
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

const rateLimitValueSchema = z
  .number({ error: 'rate_limit_invalid' })
  .int({ error: 'rate_limit_invalid' })
  .min(1, { error: 'rate_limit_invalid' })
  .max(RATE_LIMIT_MAX_PER_MINUTE, { error: 'rate_limit_invalid' })

/** Per-endpoint overrides of `DEFAULT_RATE_LIMITS`, operations per minute; an absent endpoint uses the default. */
export const rateLimitsSchema = z.partialRecord(
  z.enum(ENDPOINTS, { error: 'rate_limit_endpoint' }),
  rateLimitValueSchema,
  { error: 'invalid_value' },
)
export type RateLimits = z.infer<typeof rateLimitsSchema>

export const partnerRateBpsSchema = z
  .number({ error: 'partner_rate_invalid' })
  .int({ error: 'partner_rate_invalid' })
  .min(0, { error: 'partner_rate_invalid' })
  .max(9_999, { error: 'partner_rate_invalid' })

/** Stored lowercase; the form may paste it in either case. */
export const assetIdSchema = z
  .string({ error: 'asset_id_invalid' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, { error: 'asset_id_invalid' })

export const clientIdSchema = z
  .string({ error: 'client_id_required' })
  .trim()
  .superRefine((s, ctx) => {
    if (s === '') ctx.addIssue({ code: 'custom', message: 'client_id_required' })
    else if (s.length > CLIENT_ID_MAX_LENGTH || !PRINTABLE_NO_SPACE.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'client_id_invalid' })
    }
  })

// Pasted secrets often carry a trailing newline; no real secret starts or ends with whitespace.
const clientSecretSchema = z
  .string({ error: 'client_secret_required' })
  .trim()
  .superRefine((s, ctx) => {
    if (s === '') ctx.addIssue({ code: 'custom', message: 'client_secret_required' })
    else if (s.length > CLIENT_SECRET_MAX_LENGTH || !PRINTABLE_NO_SPACE.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'client_secret_invalid' })
    }
  })

const legacyTokenSchema = z
  .string({ error: 'token_required' })
  .trim()
  .transform((s) => s.replace(/^Bearer\s+/i, ''))
  .superRefine((s, ctx) => {
    if (s === '') ctx.addIssue({ code: 'custom', message: 'token_required' })
    else if (s.length > LEGACY_TOKEN_MAX_LENGTH || !JWT_SHAPE.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'token_invalid' })
    }
  })

const authKindError = (iss: { code: string }): ProfileMessageCode =>
  iss.code === 'invalid_union' ? 'auth_kind_invalid' : 'invalid_value'

/** How a profile signs in. Never a secret: that is in the vault under the profile's id. */
export const profileAuthSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('client_credentials'), clientId: clientIdSchema }),
    z.object({ kind: z.literal('legacy_token') }),
  ],
  { error: authKindError },
)
export type ProfileAuth = z.infer<typeof profileAuthSchema>

/** What the forms send to set a profile's sign-in: the only shapes in this file that carry a secret. */
export const credentialsInputSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject(
      { kind: z.literal('client_credentials'), clientId: clientIdSchema, clientSecret: clientSecretSchema },
      { error: objectError },
    ),
    z.strictObject({ kind: z.literal('legacy_token'), token: legacyTokenSchema }, { error: objectError }),
  ],
  { error: authKindError },
)
export type CredentialsInput = z.input<typeof credentialsInputSchema>

const profileShape = z.object({
  id: profileIdSchema,
  name: profileNameSchema,
  kind: z.enum(PROFILE_KINDS),
  baseUrl: z.string({ error: 'base_url_required' }),
  network: liquidNetworkSchema,
  rateLimits: rateLimitsSchema,
  partnerRateBps: partnerRateBpsSchema.default(DEFAULT_PARTNER_RATE_BPS),
  /** DePix asset id override (testnet/regtest issue their own asset); absent means the mainnet DePix asset. */
  assetId: assetIdSchema.optional(),
  /**
   * The treasury's own Liquid address: the default refund address of payments and the destination of top-ups.
   * Main checks it with the Liquid helper before storing it; changing it is an audited event.
   */
  defaultRefundAddress: z.string().max(200).optional(),
  /** The Esplora the treasury wallet is scanned through; absent = `DEFAULT_ESPLORA` of the network (issue #27). */
  esploraUrl: esploraUrlSchema.optional(),
  /** Addresses proposed from the treasury wallet: fresh each time (default) or one per profile (issue #27). */
  walletAddressPolicy: walletAddressPolicySchema.optional(),
  auth: profileAuthSchema,
  createdAt: z.iso.datetime({ offset: true, error: 'invalid_value' }),
})

function checkProfile(p: z.output<typeof profileShape>, ctx: z.RefinementCtx): void {
  const problem = baseUrlProblem(p.baseUrl, p.kind)
  if (problem) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: problem })
  else if (normalizeBaseUrl(p.baseUrl) !== p.baseUrl) {
    ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'base_url_invalid' })
  }
  // The built-in profile is identified by its id alone; a stored "live" profile may not impersonate it.
  if ((p.id === SANDBOX_PROFILE_ID) !== (p.kind === 'sandbox')) {
    ctx.addIssue({ code: 'custom', path: ['kind'], message: 'invalid_value' })
  }
}

export const profileSchema = profileShape.superRefine(checkProfile)
export type Profile = z.infer<typeof profileSchema>

/** What crosses IPC: the profile and whether its secret is present. Never the secret. */
export const publicProfileSchema = profileShape.extend({ hasSecret: z.boolean() }).superRefine(checkProfile)
export type PublicProfile = Profile & { hasSecret: boolean }

/** A live profile's base URL as the form sends it; checked on its own so it is reported with the other fields. */
const liveBaseUrlSchema = z
  .string({ error: 'base_url_required' })
  .superRefine((s, ctx) => {
    const problem = baseUrlProblem(s, 'live')
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .transform((s) => normalizeBaseUrl(s) ?? s)

/** The "add live profile" form. */
export const newLiveProfileInputSchema = z.strictObject(
  {
    name: profileNameSchema,
    baseUrl: liveBaseUrlSchema,
    network: liquidNetworkSchema,
    auth: credentialsInputSchema,
    rateLimits: rateLimitsSchema.optional(),
    partnerRateBps: partnerRateBpsSchema.optional(),
    assetId: assetIdSchema.optional(),
  },
  { error: objectError },
)
export type NewLiveProfileInput = z.input<typeof newLiveProfileInputSchema>

/** `rateLimits` replaces the whole override map: send `{}` to go back to the API contract defaults. */
export const profileUpdateSchema = z.strictObject(
  {
    name: profileNameSchema.optional(),
    rateLimits: rateLimitsSchema.optional(),
    partnerRateBps: partnerRateBpsSchema.optional(),
    /** null (or blank) goes back to the network's public Esplora */
    esploraUrl: z
      .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), esploraUrlSchema.nullable())
      .optional(),
    walletAddressPolicy: walletAddressPolicySchema.optional(),
  },
  { error: objectError },
)
export type ProfileUpdate = z.input<typeof profileUpdateSchema>

const languageSchema = z.enum(LANGUAGES, { error: 'language_invalid' })
const csvDelimiterSchema = z.enum([';', ','], { error: 'csv_delimiter_invalid' })

/** R$ 10.000,00: above it a live payment is confirmed by typing its amount (documented in docs/USER-GUIDE.md). */
export const DEFAULT_LIVE_CONFIRM_ABOVE_CENTS = 1_000_000
const deskLimitSchema = z.number().int().nonnegative().refine(Number.isSafeInteger).nullable()

export const settingsSchema = z.object({
  language: languageSchema.default('pt-BR'),
  activeProfileId: profileIdSchema.default(SANDBOX_PROFILE_ID),
  csvDelimiter: csvDelimiterSchema.default(';'),
  /** Number and date format in CSV exports: pt-BR (1.234,56; dd/mm/aaaa) or en (ISO dates, decimal point). */
  csvLocale: languageSchema.default('pt-BR'),
  /** Desktop notifications (payout made or returned, deadline near, outcome unknown); issue #14. */
  notifications: z.boolean().default(true),
  /**
   * Issue #26: on a live profile, a payment whose amount (as typed in the form) is above this many cents asks the
   * analyst to type the amount again before it is created; null never asks. Default R$ 10.000,00.
   */
  liveConfirmAboveCents: deskLimitSchema.default(DEFAULT_LIVE_CONFIRM_ABOVE_CENTS),
})
export type Settings = z.infer<typeof settingsSchema>

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(settingsSchema.parse({}))

export const settingsPatchSchema = z.strictObject(
  {
    language: languageSchema.optional(),
    activeProfileId: profileIdSchema.optional(),
    csvDelimiter: csvDelimiterSchema.optional(),
    csvLocale: languageSchema.optional(),
    notifications: z.boolean().optional(),
    liveConfirmAboveCents: deskLimitSchema.optional(),
  },
  { error: objectError },
)
export type SettingsPatch = z.input<typeof settingsPatchSchema>

/** Key used by `describeProfileIssues` for problems of the input as a whole. */
export const PROFILE_FORM_ROOT_PATH = '_form'

type IssueLike = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

/** One code per field path, the first issue of each field winning; unknown messages become `invalid_value`. */
export function profileIssueCodes(error: {
  readonly issues: ReadonlyArray<IssueLike>
}): Record<string, ProfileMessageCode> {
  const out: Record<string, ProfileMessageCode> = {}
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || PROFILE_FORM_ROOT_PATH
    if (Object.hasOwn(out, field)) continue
    out[field] = isProfileMessageCode(issue.message) ? issue.message : 'invalid_value'
  }
  return out
}

/** One translated sentence per field path; never zod's English and never the value that was refused. */
export function describeProfileIssues(
  error: { readonly issues: ReadonlyArray<IssueLike> },
  locale: Language = 'pt-BR',
): Record<string, string> {
  const codes = profileIssueCodes(error)
  return Object.fromEntries(
    Object.entries(codes).map(([field, code]) => [field, profileMessages[code][locale]]),
  )
}

/** A slug for a new profile's id from its name; the caller makes it unique. */
export function slugifyProfileName(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PROFILE_ID_MAX_LENGTH - 4)
    .replace(/-+$/, '')
  return slug === '' || slug === SANDBOX_PROFILE_ID ? 'profile' : slug
}
