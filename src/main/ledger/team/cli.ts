/**
 * `team-ledger`, the database administrator's tool for a team ledger (docs/TEAM-LEDGER.md). Shipped built, as one
 * file in the app's resources (scripts/build-team-ledger.mjs), and run with plain `node` ≥ 20:
 *
 *   node team-ledger.cjs setup --host db.example.com --user postgres --ca team-ca.crt --analyst ana_souza
 *   node team-ledger.cjs status | migrate | threshold 5000,00 | rate withdraw 6 | analyst add|remove|list NAME
 *   node team-ledger.cjs password ROLE | backup-advice | import <desk ledger file> [operator]
 *
 * Connections follow libpq's variables and the desks' TLS rules (cli/connect.ts); passwords never come from the
 * command line (cli/secrets.ts).
 */
import { parseArgs } from 'node:util'
import pg from 'pg'
import { migrate, schemaVersion } from '../pg/migrate'
import { PG_LATEST_VERSION, SCHEMA } from '../pg/schema'
import { backupAdvice } from './cli/advice'
import { addAnalyst, listAnalysts, removeAnalyst, setPassword } from './cli/analysts'
import { clientConfig, resolveTarget, type Target } from './cli/connect'
import { CliError } from './cli/errors'
import type { Terminal } from './cli/secrets'
import { setup } from './cli/setup'
import { setRate, setThreshold, status } from './cli/team'

export const USAGE = `usage: team-ledger <command> [options]
  setup [--analyst NAME[=PASSWORD_FILE]]... [--owner-password-file FILE]   (as a superuser)
  status | migrate | threshold <R$ amount|off> | rate <endpoint> <per minute>   (as the owner)
  analyst add NAME [--new-password-file FILE] | analyst remove NAME | analyst list   (as a superuser)
  password ROLE [--new-password-file FILE] | backup-advice | import <desk ledger file> [operator]
options: --host --port --user --db (default depix_team) --owner (default depix_owner) --maintenance-db (postgres)
  --sslmode (default verify-full) --ca FILE --password-file FILE; or libpq's PG* variables`

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  user: { type: 'string' },
  db: { type: 'string' },
  owner: { type: 'string' },
  'maintenance-db': { type: 'string' },
  sslmode: { type: 'string' },
  ca: { type: 'string' },
  'password-file': { type: 'string' },
  'new-password-file': { type: 'string' },
  'owner-password-file': { type: 'string' },
  analyst: { type: 'string', multiple: true },
  help: { type: 'boolean' },
} as const

export interface CliContext {
  env: NodeJS.ProcessEnv
  terminal?: Terminal
  /** Tests of the desk import pass a ready connection instead of flags. */
  config?: pg.ClientConfig
}

const SSL_NOTE: Record<string, string> = {
  'verify-full': 'certificate and host name verified',
  'verify-ca': 'certificate verified (host name not checked)',
  require: 'encrypted, certificate NOT verified',
  disable: '',
}

async function connected(
  target: Target,
  ctx: CliContext,
  database?: string,
): Promise<{ client: pg.Client; note: string }> {
  const { config, tlsMode } = ctx.config
    ? { config: { ...ctx.config, ...(database ? { database } : {}) }, tlsMode: 'disable' as const }
    : await clientConfig(target, ctx.env, { database, terminal: ctx.terminal })
  const client = new pg.Client(config)
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (e) {
    await client.end().catch(() => undefined)
    throw e
  }
  return { client, note: `${SSL_NOTE[tlsMode] ?? ''}${target.caSource ? ` against ${target.caSource}` : ''}` }
}

/** A command the tool does not know, or one missing its argument: the usage, as a failure (exit 1). */
const misuse = (): never => {
  throw new CliError(USAGE)
}

export async function main(
  argv: readonly string[],
  ctxOrConfig: CliContext | pg.ClientConfig = {},
): Promise<string> {
  const ctx: CliContext =
    'env' in ctxOrConfig
      ? (ctxOrConfig as CliContext)
      : { env: process.env, config: ctxOrConfig as pg.ClientConfig }
  const { values: f, positionals } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  })
  const [command, ...rest] = positionals
  if (!command || f.help) return USAGE
  const target = resolveTarget(f, ctx.env, 'depix_team')
  const owner = f.owner ?? 'depix_owner'
  if (command === 'backup-advice') return backupAdvice(target, owner)
  if (command === 'import') {
    if (!rest[0]) return misuse()
    // Loaded here only: it brings node:sqlite, which Node 20 lacks and newer ones flag as experimental.
    const { importDeskFile } = await import('./import-cli').catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== 'ERR_UNKNOWN_BUILTIN_MODULE') throw e
      throw new CliError(
        `import reads a desk's SQLite ledger: it needs Node 22.5 or newer (this is ${process.version})`,
      )
    })
    const { config } = ctx.config
      ? { config: ctx.config }
      : await clientConfig(target, ctx.env, { terminal: ctx.terminal })
    return importDeskFile(rest[0], rest[1] ?? '', config)
  }
  if (command === 'setup') {
    return setup({
      database: target.database,
      owner,
      analysts: f.analyst ?? [],
      ownerPasswordFile: f['owner-password-file'],
      terminal: ctx.terminal,
      maintenanceDb: f['maintenance-db'] ?? 'postgres',
      connect: async (database) => (await connected(target, ctx, database)).client,
    })
  }
  const known = ['status', 'migrate', 'threshold', 'rate', 'analyst', 'password']
  if (!known.includes(command)) return misuse()
  const { client: c, note } = await connected(target, ctx)
  try {
    if (command === 'status') return await status(c, note)
    if (command === 'password') {
      if (!rest[0]) return misuse()
      return await setPassword(c, rest[0], { passwordFile: f['new-password-file'], terminal: ctx.terminal })
    }
    if (command === 'migrate') {
      const before = await schemaVersion(c)
      const after = await migrate(c)
      return before === after
        ? `team ledger schema already at v${after}`
        : `team ledger schema v${before} → v${after}`
    }
    const v = await schemaVersion(c)
    if (v !== PG_LATEST_VERSION) {
      throw new CliError(
        `the team ledger is at schema v${v}, this tool needs v${PG_LATEST_VERSION}: run migrate first`,
      )
    }
    await c.query(`SET search_path = ${SCHEMA}, pg_temp`)
    if (command === 'threshold') return rest[0] ? await setThreshold(c, rest[0]) : misuse()
    if (command === 'rate') return rest[0] && rest[1] ? await setRate(c, rest[0], rest[1]) : misuse()
    const [sub, name] = rest
    if (sub === 'list') return (await listAnalysts(c)).join('\n') || 'no analysts'
    if (sub === 'add' && name)
      return (await addAnalyst(c, name, { passwordFile: f['new-password-file'], terminal: ctx.terminal }))
        .line
    if (sub === 'remove' && name) return (await removeAnalyst(c, name)).line
    return misuse()
  } finally {
    await c.end().catch(() => undefined)
  }
}

/** What the terminal shows for a failure: the refusal's words, never a stack trace. */
export function failureText(e: unknown): string {
  const words = (e as { userMessage?: { 'pt-BR'?: string; en?: string } }).userMessage
  if (words?.['pt-BR']) return `${words['pt-BR']}\n${words.en ?? ''}`
  const code = (e as { code?: unknown }).code
  const msg = e instanceof Error ? e.message : String(e)
  return typeof code === 'string' && !(e instanceof CliError) ? `${msg} (${code})` : msg
}
