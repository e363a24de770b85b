/**
 * The team ledger's connection settings (a "team profile"): where the team's PostgreSQL server is and which
 * database role this analyst uses. Like a connection profile it never holds a secret: the role's password lives in
 * main's vault under `teamLedgerPasswordKey(id)` and only `hasPassword` crosses IPC. Every refusal is a stable code
 * from `teamLedgerMessages`, translated by the UI.
 */
import { z } from 'zod'

/** `disable` only for a server on this machine (loopback); `verify-full` checks the certificate and host name. */
export const TEAM_TLS_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const
export type TeamTlsMode = (typeof TEAM_TLS_MODES)[number]

/** PostgreSQL identifiers: unquoted, lower case, as setup.sql creates them. */
const IDENTIFIER = /^[a-z_][a-z0-9_$]{0,62}$/
const HOST =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$|^\[?[0-9a-fA-F:.]+\]?$/
export const TEAM_CA_MAX_LENGTH = 64 * 1024
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1', '[::1]'] as const

export const teamLedgerMessages = {
  host_invalid: {
    'pt-BR': 'Informe o servidor (nome ou IP), sem "postgres://".',
    en: 'Enter the server (name or IP), without "postgres://".',
  },
  port_invalid: { 'pt-BR': 'A porta é um número de 1 a 65535.', en: 'The port is a number from 1 to 65535.' },
  database_invalid: {
    'pt-BR': 'Nome de banco inválido: letras minúsculas, números e _ (ex.: depix_team).',
    en: 'Invalid database name: lower-case letters, digits and _ (e.g. depix_team).',
  },
  role_invalid: {
    'pt-BR':
      'Usuário do banco inválido: letras minúsculas, números e _ (o que o responsável criou para você).',
    en: 'Invalid database role: lower-case letters, digits and _ (the one the owner created for you).',
  },
  tls_required: {
    'pt-BR': 'Sem TLS, só para um servidor neste computador. Para um servidor na rede, use "verify-full".',
    en: 'Without TLS only for a server on this computer. For a server on the network use "verify-full".',
  },
  ca_invalid: {
    'pt-BR': 'O certificado da autoridade (CA) deve estar em formato PEM (-----BEGIN CERTIFICATE-----).',
    en: 'The authority (CA) certificate must be PEM (-----BEGIN CERTIFICATE-----).',
  },
} as const
export type TeamLedgerMessageCode = keyof typeof teamLedgerMessages

export const teamLedgerSettingsSchema = z
  .object({
    host: z.string().trim().min(1, 'host_invalid').max(253, 'host_invalid').regex(HOST, 'host_invalid'),
    port: z
      .number({ error: 'port_invalid' })
      .int('port_invalid')
      .min(1, 'port_invalid')
      .max(65_535, 'port_invalid'),
    database: z.string().regex(IDENTIFIER, 'database_invalid'),
    role: z.string().regex(IDENTIFIER, 'role_invalid'),
    tls: z.enum(TEAM_TLS_MODES, { error: 'invalid_value' }),
    /** PEM of the CA that signed the server's certificate, when it is not a public one. */
    caPem: z
      .string()
      .max(TEAM_CA_MAX_LENGTH, 'ca_invalid')
      .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/, 'ca_invalid')
      .nullable()
      .default(null),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.tls === 'disable' && !(LOOPBACK_HOSTS as readonly string[]).includes(s.host)) {
      ctx.addIssue({ code: 'custom', path: ['tls'], message: 'tls_required' })
    }
  })
export type TeamLedgerSettings = z.infer<typeof teamLedgerSettingsSchema>

/** What the renderer sees: the settings and whether a password is stored, never the password. */
export const teamLedgerViewSchema = z.object({
  settings: teamLedgerSettingsSchema.nullable(),
  hasPassword: z.boolean(),
})
export type TeamLedgerView = z.infer<typeof teamLedgerViewSchema>

export const teamLedgerPasswordKey = (teamId: string): string => `team-ledger:${teamId}:password`
