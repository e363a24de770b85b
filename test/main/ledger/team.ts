/**
 * A team on a throwaway cluster, set up the way a customer does it: resources/team-ledger/setup.sql through psql,
 * the owner applies the migrations, one LOGIN role per analyst in the depix_analysts group.
 */
import path from 'node:path'
import pg from 'pg'
import { migratePg, openPgStore, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { PG_MIGRATIONS, type PgMigration } from '../../../src/main/ledger/pg/schema'
import { startCluster, type ClusterOptions, type PgCluster } from '../../support/postgres'

export const DATABASE = 'depix_team'
export const OWNER = 'depix_owner'
const OWNER_PW = 'owner-secret'
const SETUP_SQL = path.resolve(__dirname, '../../../resources/team-ledger/setup.sql')

export interface Team {
  cluster: PgCluster
  config(user: string): pg.ClientConfig
  /** A client connected as the owner (closed by stop). */
  owner(): Promise<pg.Client>
  /** Creates the analyst role (once) and opens a store as that role. */
  desk(name: string): Promise<PgLedgerStore>
  addAnalyst(name: string, inGroup?: boolean): Promise<void>
  stop(): Promise<void>
}

/** `migrations`: the schema to build (default: every migration); a migration test starts from an older one. */
export async function startTeam(
  o: ClusterOptions = {},
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<Team> {
  const cluster = await startCluster(o)
  const stores: PgLedgerStore[] = []
  const clients: pg.Client[] = []
  const roles = new Set<string>()
  try {
    cluster.psqlFile(SETUP_SQL, { owner_password: OWNER_PW })
    const config = (user: string): pg.ClientConfig =>
      cluster.config(user, user === OWNER ? OWNER_PW : `${user}-pw`, DATABASE)
    const owner = async (): Promise<pg.Client> => {
      const c = new pg.Client({ ...config(OWNER), options: '-c search_path=ledger,pg_temp' })
      c.on('error', () => undefined)
      await c.connect()
      clients.push(c)
      return c
    }
    const o = await owner()
    await migratePg(o, migrations)
    const addAnalyst = async (name: string, inGroup = true): Promise<void> => {
      if (roles.has(name)) return
      roles.add(name)
      await cluster.createLogin(name, `${name}-pw`, inGroup ? 'depix_analysts' : undefined)
      if (!inGroup)
        await cluster.admin(`GRANT CONNECT ON DATABASE ${DATABASE} TO ${pg.escapeIdentifier(name)}`)
    }
    return {
      cluster,
      config,
      owner,
      addAnalyst,
      desk: async (name) => {
        await addAnalyst(name)
        const s = await openPgStore({ connection: config(name) })
        stores.push(s)
        return s
      },
      stop: async () => {
        for (const s of stores) await s.close().catch(() => undefined)
        for (const c of clients) await c.end().catch(() => undefined)
        cluster.stop()
      },
    }
  } catch (e) {
    cluster.stop()
    throw e
  }
}
