/**
 * The team's treasury wallet (issue #27, team migration 18): the owner registers the team's watch-only descriptor
 * in the team database, every desk reads it from there and watches the same wallet, so two desks show the same
 * balance and statement. The owner's step also registers the wallet's first receive addresses as the team's
 * "registered treasury addresses" (`treasury_addresses`), which the database itself checks refund and top-up
 * delivery addresses against (four-eyes, docs/TEAM-LEDGER.md): the registered-address check is the database's.
 */
import { z } from 'zod'
import type { LiquidNetwork } from '../liquid/networks'
import { checkDescriptor, networkOf } from './descriptor'
import { loadLwk } from './lwk'

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>
}

/** A row read from the shared database is checked like any input; the descriptor again by LWK. */
const rowSchema = z.object({
  descriptor: z.string().min(1).max(5_000),
  network: z.enum(['liquid', 'testnet', 'regtest']),
})

export interface TeamWallet {
  readonly descriptor: string
  readonly network: LiquidNetwork
}

/** The team's descriptor, or null when none is registered (or what is stored is not a watch-only descriptor). */
export async function readTeamWallet(db: Queryable): Promise<TeamWallet | null> {
  const { rows } = await db.query('SELECT descriptor, network FROM ledger.team_wallet WHERE id = 1')
  const row = rowSchema.safeParse(rows[0])
  if (!row.success) return null
  try {
    return {
      descriptor: checkDescriptor(row.data.descriptor, row.data.network).descriptor,
      network: row.data.network,
    }
  } catch {
    return null
  }
}

/** How many receive addresses the owner's step registers by default. */
export const TEAM_WALLET_ADDRESSES = 100

/** The wallet's receive addresses 0…count-1, derived by LWK. */
export function receiveAddresses(descriptor: string, network: LiquidNetwork, count: number): string[] {
  const lwk = loadLwk()
  const wollet = new lwk.Wollet(networkOf(lwk, network), new lwk.WolletDescriptor(descriptor))
  try {
    const out: string[] = []
    for (let i = 0; i < count; i++) out.push(wollet.address(i).address().toString())
    return out
  } finally {
    wollet.free()
  }
}

/**
 * The owner's step: checks the descriptor (a private key, a seed phrase, the wrong network or no blinding key is
 * refused with DescriptorError and nothing is written), stores it through `team_wallet_set`, and registers its
 * first `addresses` receive addresses as treasury addresses (audited by the table's own trigger). As the owner.
 */
export async function setTeamWallet(
  owner: Queryable,
  text: string,
  network: LiquidNetwork,
  addresses = TEAM_WALLET_ADDRESSES,
): Promise<{ registered: number }> {
  const { descriptor } = checkDescriptor(text, network)
  const list = receiveAddresses(descriptor, network, addresses)
  await owner.query('BEGIN')
  try {
    await owner.query('SELECT ledger.team_wallet_set($1, $2)', [descriptor, network])
    const r = await owner.query(
      `INSERT INTO ledger.treasury_addresses (address, label)
         SELECT a, 'Carteira da tesouraria #' || (n - 1) FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n)
       ON CONFLICT (address) DO NOTHING RETURNING address`,
      [list],
    )
    await owner.query('COMMIT')
    return { registered: r.rows.length }
  } catch (e) {
    await owner.query('ROLLBACK').catch(() => undefined)
    throw e
  }
}
