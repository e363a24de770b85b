/**
 * Numbered migrations of the team ledger, recorded in `ledger.schema_version` (one row per migration, with who
 * applied it). Run by the owner role (setup.sql); analysts' desks only check: a schema newer than this app is
 * refused (an older app could write rows the newer schema no longer accepts), an older one asks for the owner.
 */
import type pg from 'pg'
import { ANALYST_GROUP, PG_LATEST_VERSION, PG_MIGRATIONS, SCHEMA, type PgMigration } from './schema'
import { TeamLedgerError } from '../team-errors'

type Client = Pick<pg.ClientBase, 'query'>

const MIGRATION_LOCK = 727_016_001

export async function schemaVersion(c: Client): Promise<number> {
  const exists = await c.query(`SELECT to_regclass('${SCHEMA}.schema_version') IS NOT NULL AS ok`)
  if (!exists.rows[0]?.ok) return 0
  const r = await c.query(`SELECT coalesce(max(version), 0) AS v FROM ${SCHEMA}.schema_version`)
  return Number(r.rows[0]?.v ?? 0)
}

function tooNew(found: number, known: number): TeamLedgerError {
  return new TeamLedgerError(
    'schema_too_new',
    `team ledger schema v${found} is newer than this app (v${known})`,
    {
      'pt-BR': `O livro-caixa da equipe está na versão ${found} do esquema, mais nova que a deste aplicativo (${known}). Atualize o aplicativo antes de conectar.`,
      en: `The team ledger is at schema version ${found}, newer than this app's (${known}). Update the app before connecting.`,
    },
  )
}

/** Refuses a schema this app cannot work with; returns the version found. */
export async function checkSchema(c: Client, known = PG_LATEST_VERSION): Promise<number> {
  const v = await schemaVersion(c)
  if (v > known) throw tooNew(v, known)
  if (v < known) {
    throw new TeamLedgerError('schema_too_old', `team ledger schema v${v}, this app needs v${known}`, {
      'pt-BR': `O livro-caixa da equipe está na versão ${v} do esquema; este aplicativo precisa da ${known}. Peça ao responsável pelo banco para atualizá-lo.`,
      en: `The team ledger is at schema version ${v}; this app needs ${known}. Ask the database owner to upgrade it.`,
    })
  }
  return v
}

/**
 * Applies every pending migration, each in its own transaction with its version row, under an advisory lock (two
 * owners upgrading at once apply each step once). Returns the version reached.
 */
export async function migrate(
  c: Client,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<number> {
  const group = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [ANALYST_GROUP])
  if (group.rowCount === 0) {
    throw new TeamLedgerError('permission_denied', `role ${ANALYST_GROUP} does not exist`, {
      'pt-BR': `O grupo ${ANALYST_GROUP} não existe no servidor: rode "team-ledger setup" (ou resources/team-ledger/setup.sql) antes.`,
      en: `The ${ANALYST_GROUP} group role does not exist on the server: run "team-ledger setup" (or resources/team-ledger/setup.sql) first.`,
    })
  }
  const owner = await c.query(
    `SELECT pg_get_userbyid(nspowner) AS owner, current_user AS me FROM pg_namespace WHERE nspname = $1`,
    [SCHEMA],
  )
  const schemaOwner = owner.rows[0] as { owner: string; me: string } | undefined
  if (schemaOwner && schemaOwner.owner !== schemaOwner.me) {
    throw new TeamLedgerError('permission_denied', `only ${schemaOwner.owner} applies migrations`, {
      'pt-BR': `Só o responsável pelo banco (${schemaOwner.owner}) atualiza o esquema do livro-caixa da equipe.`,
      en: `Only the database owner (${schemaOwner.owner}) upgrades the team ledger's schema.`,
    })
  }
  await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`)
    await c.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_version (
      version integer PRIMARY KEY, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT session_user)`)
    await c.query(`GRANT USAGE ON SCHEMA ${SCHEMA} TO ${ANALYST_GROUP}`)
    await c.query(`GRANT SELECT ON ${SCHEMA}.schema_version TO ${ANALYST_GROUP}`)
    let current = await schemaVersion(c)
    const last = migrations.at(-1)?.version ?? 0
    if (current > last) throw tooNew(current, last)
    for (const m of migrations) {
      if (m.version <= current) continue
      await c.query('BEGIN')
      try {
        await c.query(`SET LOCAL search_path = ${SCHEMA}, pg_temp`)
        await c.query(m.sql)
        await c.query(`INSERT INTO ${SCHEMA}.schema_version (version, name) VALUES ($1, $2)`, [
          m.version,
          m.name,
        ])
        await c.query('COMMIT')
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined)
        throw e
      }
      current = m.version
    }
    return current
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined)
  }
}
