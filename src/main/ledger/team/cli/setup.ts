/**
 * `team-ledger setup`: a team ledger from nothing on the server the DBA names, as a superuser — what
 * resources/team-ledger/setup.sql does, then the schema, the analysts and a TLS check. Every step looks before it
 * acts, so a second run changes nothing and says so.
 *
 * The schema is created as the owner role (SET ROLE), so the owner owns every object and the SECURITY DEFINER
 * functions run with its rights, exactly as if the owner had run `migrate` itself.
 */
import pg from 'pg'
import { migrate, schemaVersion } from '../../pg/migrate'
import { ANALYST_GROUP } from '../../pg/schema'
import { addAnalyst, checkRoleName } from './analysts'
import { CliError } from './errors'
import { newPassword, scramVerifier, type Terminal } from './secrets'
import { sessionTls } from './team'

export interface SetupOptions {
  database: string
  owner: string
  /** `name` or `name=password file`. */
  analysts: readonly string[]
  ownerPasswordFile?: string
  terminal?: Terminal
  /** Connects to `database` with the DBA's settings. */
  connect: (database: string) => Promise<pg.Client>
  maintenanceDb: string
}

type Client = Pick<pg.ClientBase, 'query'>

const DB_NAME = /^[a-z_][a-z0-9_]{0,62}$/

async function one(
  c: Client,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown> | undefined> {
  return (await c.query(sql, params)).rows[0]
}

/** What the server's own settings say about TLS and passwords; warnings, never changes. */
async function tlsCheck(c: Client, database: string): Promise<string[]> {
  const out: string[] = []
  const tls = await sessionTls(c)
  out.push(
    tls ? `TLS: this session is encrypted (${tls})` : 'TLS: this session is NOT encrypted (local server)',
  )
  const ssl = await one(
    c,
    `SELECT current_setting('ssl') AS ssl, current_setting('password_encryption') AS pe`,
  )
  if (ssl?.ssl !== 'on')
    out.push('warning: the server has ssl = off: desks on the network cannot connect (docs/TEAM-LEDGER.md)')
  if (ssl?.pe !== 'scram-sha-256')
    out.push(`warning: password_encryption is ${String(ssl?.pe)}, use scram-sha-256`)
  const rules = await c
    .query(
      `SELECT line_number, type, database, address, auth_method FROM pg_hba_file_rules
       WHERE error IS NULL AND type IN ('host', 'hostnossl', 'hostssl')
         AND ('all' = ANY(database) OR $1 = ANY(database))
         AND coalesce(address, '') NOT IN ('127.0.0.1', '::1') AND auth_method <> 'reject'`,
      [database],
    )
    .catch(() => ({ rows: [] as Record<string, unknown>[] }))
  for (const r of rules.rows) {
    const where = `pg_hba.conf line ${String(r.line_number)} (${String(r.type)} ${String(r.address ?? '')} ${String(r.auth_method)})`
    if (r.type !== 'hostssl')
      out.push(`warning: ${where} lets ${database} be reached without TLS: use hostssl`)
    if (r.auth_method !== 'scram-sha-256' && r.auth_method !== 'cert')
      out.push(`warning: ${where} does not use scram-sha-256`)
  }
  return out
}

export async function setup(o: SetupOptions): Promise<string> {
  if (!DB_NAME.test(o.database)) throw new CliError(`invalid database name ${o.database}`)
  checkRoleName(o.owner)
  const changes: string[] = []
  const notes: string[] = []
  const owner = pg.escapeIdentifier(o.owner)
  const db = pg.escapeIdentifier(o.database)
  const admin = await o.connect(o.maintenanceDb)
  try {
    const me = await one(admin, 'SELECT rolsuper FROM pg_roles WHERE rolname = session_user')
    if (me?.rolsuper !== true) throw new CliError('run setup as a superuser (e.g. --user postgres)')
    notes.push(...(await tlsCheck(admin, o.database)))

    if (!(await one(admin, 'SELECT 1 FROM pg_roles WHERE rolname = $1', [o.owner]))) {
      const v = scramVerifier(await newPassword(o.owner, o.ownerPasswordFile, o.terminal))
      await admin.query(`CREATE ROLE ${owner} LOGIN PASSWORD ${pg.escapeLiteral(v)}`)
      changes.push(`role ${o.owner} created (owns the team database and applies migrations)`)
    }
    if (!(await one(admin, 'SELECT 1 FROM pg_roles WHERE rolname = $1', [ANALYST_GROUP]))) {
      await admin.query(`CREATE ROLE ${ANALYST_GROUP} NOLOGIN`)
      changes.push(`group role ${ANALYST_GROUP} created`)
    }
    const found = await one(
      admin,
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [o.database],
    )
    if (!found) {
      await admin.query(`CREATE DATABASE ${db} OWNER ${owner} ENCODING 'UTF8' TEMPLATE template0`)
      changes.push(`database ${o.database} created`)
    } else if (found.owner !== o.owner) {
      throw new CliError(
        `database ${o.database} exists and belongs to ${String(found.owner)}, not ${o.owner}`,
      )
    }
    const publicAcl = await one(
      admin,
      `SELECT count(*)::int AS n FROM pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
       WHERE d.datname = $1 AND a.grantee = 0`,
      [o.database],
    )
    if (Number(publicAcl?.n) > 0) {
      await admin.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`)
      changes.push(`${o.database}: PUBLIC may no longer connect`)
    }
    const grants = await one(
      admin,
      `SELECT has_database_privilege($2, $1, 'CONNECT') AND has_database_privilege($2, $1, 'TEMPORARY') AS ok`,
      [o.database, ANALYST_GROUP],
    )
    if (grants?.ok !== true) {
      await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO ${ANALYST_GROUP}`)
      changes.push(`${ANALYST_GROUP} may connect to ${o.database}`)
    }
  } finally {
    await admin.end()
  }

  const team = await o.connect(o.database)
  try {
    const pub = await one(team, `SELECT has_schema_privilege('public', 'public', 'CREATE') AS yes`)
    if (pub?.yes === true) {
      await team.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC')
      changes.push('schema public: nobody but the owner creates objects')
    }
    await team.query(`SET ROLE ${owner}`)
    const before = await schemaVersion(team)
    const after = await migrate(team)
    await team.query('RESET ROLE')
    if (after !== before) changes.push(`schema v${before} → v${after}`)
    else notes.push(`schema already at v${after}`)
    for (const spec of o.analysts) {
      const [name = '', file] = spec.split('=', 2)
      const r = await addAnalyst(team, name, { passwordFile: file, terminal: o.terminal })
      ;(r.changed ? changes : notes).push(r.line)
    }
  } finally {
    await team.end()
  }
  const summary =
    changes.length === 0
      ? 'nothing changed: the team ledger was already set up'
      : `${changes.length} change(s) made`
  return [...changes, ...notes, summary].join('\n')
}
