/**
 * The team ledger's connection settings (a "team profile"): where the team's PostgreSQL server is and which
 * database role this analyst uses. Like a connection profile it never holds a secret: the role's password lives in
 * main's vault under `teamLedgerPasswordKey(id)` and only `hasPassword` crosses IPC. Every refusal is a stable code
 * from `teamLedgerMessages`, translated by the UI.
 */
import { z } from 'zod'

/** What testing a connection found (`team:test`), and why a team profile is not connected (`team:status`). */
export const TEAM_TEST_VERDICTS = [
  /** Connected, schema current, the role may work on the ledger. */
  'ok',
  'unavailable',
  'auth_failed',
  /** The server answered but has no database of that name (SQLSTATE 3D000). */
  'database_not_found',
  'tls_failed',
  'permission_denied',
  'schema_too_new',
  'schema_too_old',
  'no_password',
  'invalid_settings',
] as const
export type TeamTestVerdict = (typeof TEAM_TEST_VERDICTS)[number]

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
  password_required: {
    'pt-BR':
      'Informe a senha do usuário do banco (para outro servidor, usuário ou TLS ela é pedida de novo).',
    en: 'Enter the database role’s password (it is asked again for another server, role or TLS).',
  },
  password_too_long: {
    'pt-BR': 'A senha tem no máximo 1024 caracteres.',
    en: 'The password has at most 1024 characters.',
  },
  invalid_value: { 'pt-BR': 'Valor inválido.', en: 'Invalid value.' },
} as const
export type TeamLedgerMessageCode = keyof typeof teamLedgerMessages

/** "Testar conexão": one sentence per verdict of `team:test` (src/shared/channels-team.ts). */
export const teamTestMessages = {
  ok: {
    'pt-BR': 'Conexão funcionando: este computador pode usar o livro-caixa da equipe.',
    en: 'Connection works: this computer can use the team ledger.',
  },
  unavailable: {
    'pt-BR': 'O servidor não respondeu. Confira o endereço, a porta e a rede (VPN, firewall).',
    en: 'The server did not answer. Check the address, the port and the network (VPN, firewall).',
  },
  auth_failed: {
    'pt-BR': 'Usuário do banco ou senha incorretos.',
    en: 'Wrong database role or password.',
  },
  database_not_found: {
    'pt-BR': 'O servidor respondeu, mas não tem um banco com esse nome.',
    en: 'The server answered but has no database with that name.',
  },
  tls_failed: {
    'pt-BR':
      'Falha na conexão segura (TLS): o certificado do servidor não confere com o nome ou com a autoridade (CA) informada, ou o servidor não oferece TLS.',
    en: 'Secure connection (TLS) failed: the server’s certificate does not match the name or the authority (CA) given, or the server does not offer TLS.',
  },
  permission_denied: {
    'pt-BR':
      'Conectado, mas este usuário do banco não pode trabalhar no livro-caixa: peça ao responsável para incluí-lo no grupo dos analistas.',
    en: 'Connected, but this database role may not work on the ledger: ask the owner to add it to the analysts’ group.',
  },
  schema_too_new: {
    'pt-BR': 'O livro-caixa da equipe é de uma versão mais nova que este aplicativo: atualize o aplicativo.',
    en: 'The team ledger is from a newer version than this app: update the app.',
  },
  schema_too_old: {
    'pt-BR':
      'O livro-caixa da equipe ainda não foi preparado para esta versão: peça ao responsável pelo banco para atualizá-lo.',
    en: 'The team ledger is not yet prepared for this version: ask the database owner to upgrade it.',
  },
  no_password: {
    'pt-BR': 'Informe a senha: não há senha guardada para este servidor, usuário e TLS.',
    en: 'Enter the password: none is stored for this server, role and TLS.',
  },
  invalid_settings: {
    'pt-BR': 'Preencha os dados do servidor da equipe antes de testar.',
    en: 'Fill in the team server’s details before testing.',
  },
} as const satisfies Record<TeamTestVerdict, { 'pt-BR': string; en: string }>

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
