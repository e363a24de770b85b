/**
 * Analysts are PostgreSQL roles in the group `depix_analysts`, one per person (the audit log names the role).
 * Adding and removing one changes roles, which only a superuser (or a CREATEROLE role) may do; each change runs in
 * one transaction with `ledger.record_analyst_change` (migration 14), so the team's audit chain says who added or
 * removed whom, and when, or nothing changed at all.
 */
import pg from 'pg'
import { ANALYST_GROUP, SCHEMA } from '../../pg/schema'
import { CliError } from './errors'
import { newPassword, scramVerifier, type Terminal } from './secrets'

type Client = Pick<pg.ClientBase, 'query'>

/** Lower-case unquoted identifiers, as the desks' settings accept (src/shared/team-ledger.ts). */
const ROLE = /^[a-z_][a-z0-9_$]{0,62}$/

export function checkRoleName(name: string): string {
  if (!ROLE.test(name)) throw new CliError(`invalid role name "${name}": lower-case letters, digits and _`)
  if (name === ANALYST_GROUP || name.startsWith('pg_')) throw new CliError(`"${name}" cannot be an analyst`)
  return name
}

export type AnalystState = 'absent' | 'active' | 'no_login' | 'outside'

async function stateOf(c: Client, role: string): Promise<AnalystState> {
  const r = await c.query(`SELECT ${SCHEMA}.analyst_state($1) AS s`, [role])
  return r.rows[0]?.s as AnalystState
}

async function inTx<T>(c: Client, fn: () => Promise<T>): Promise<T> {
  await c.query('BEGIN')
  try {
    const v = await fn()
    await c.query('COMMIT')
    return v
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw e
  }
}

/**
 * Makes `role` an analyst who can log in. A new role gets a password (file or prompt); an existing one keeps its
 * own. Returns the line to print.
 */
export async function addAnalyst(
  c: Client,
  role: string,
  o: { passwordFile?: string; terminal?: Terminal } = {},
): Promise<{ changed: boolean; line: string }> {
  checkRoleName(role)
  const before = await stateOf(c, role)
  if (before === 'active') return { changed: false, line: `analyst ${role}: already there` }
  const ident = pg.escapeIdentifier(role)
  const verifier =
    before === 'absent' ? scramVerifier(await newPassword(role, o.passwordFile, o.terminal)) : null
  await inTx(c, async () => {
    if (verifier) await c.query(`CREATE ROLE ${ident} LOGIN PASSWORD ${pg.escapeLiteral(verifier)}`)
    else await c.query(`ALTER ROLE ${ident} LOGIN`)
    await c.query(`GRANT ${ANALYST_GROUP} TO ${ident}`)
    await c.query(`SELECT ${SCHEMA}.record_analyst_change($1, $2)`, [role, before])
  })
  return {
    changed: true,
    line:
      before === 'absent' ? `analyst ${role}: created` : `analyst ${role}: can work again (was ${before})`,
  }
}

/**
 * Takes `role` out of the group and its login away, keeping everything it recorded (records name it), and ends
 * its open sessions: a desk already connected would otherwise keep working until it reconnects.
 */
export async function removeAnalyst(c: Client, role: string): Promise<{ changed: boolean; line: string }> {
  checkRoleName(role)
  const before = await stateOf(c, role)
  if (before === 'absent') throw new CliError(`there is no role ${role}`)
  if (before === 'outside') {
    const login = await c.query('SELECT rolcanlogin FROM pg_roles WHERE rolname = $1', [role])
    if (login.rows[0]?.rolcanlogin !== true)
      return { changed: false, line: `analyst ${role}: already removed` }
  }
  const ident = pg.escapeIdentifier(role)
  await inTx(c, async () => {
    if (before !== 'outside') await c.query(`REVOKE ${ANALYST_GROUP} FROM ${ident}`)
    await c.query(`ALTER ROLE ${ident} NOLOGIN`)
    await c.query(`SELECT ${SCHEMA}.record_analyst_change($1, $2)`, [role, before])
  })
  const ended = await c.query(
    'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE usename = $1',
    [role],
  )
  return {
    changed: true,
    line: `analyst ${role}: removed (cannot log in; ${Number(ended.rows[0]?.n ?? 0)} open session(s) ended; their records stay)`,
  }
}

/** A role's new password, sent hashed. */
export async function setPassword(
  c: Client,
  role: string,
  o: { passwordFile?: string; terminal?: Terminal } = {},
): Promise<string> {
  checkRoleName(role)
  const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])
  if (exists.rowCount === 0) throw new CliError(`there is no role ${role}`)
  const verifier = scramVerifier(await newPassword(role, o.passwordFile, o.terminal))
  await c.query(`ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD ${pg.escapeLiteral(verifier)}`)
  return `password of ${role} changed (desks using it must enter the new one in Configurações)`
}

export async function listAnalysts(c: Client): Promise<string[]> {
  const r = await c.query(
    `SELECT r.rolname AS name, r.rolcanlogin AS login FROM pg_roles r
     WHERE pg_has_role(r.oid, $1, 'MEMBER') AND r.rolname <> $1 AND NOT r.rolsuper ORDER BY r.rolname`,
    [ANALYST_GROUP],
  )
  return r.rows.map((row) => `${String(row.name)}${row.login === true ? '' : ' (cannot log in)'}`)
}
