/**
 * The tracker lease's round trips (migration-leadership.ts), each also reading the server's clock: the leadership
 * keeps the desk's offset to it from the freshest one (ServerClock), for record ages and the clock-skew notice.
 * Rows read back are checked with zod: the database is shared and other roles write it.
 */
import type pg from 'pg'
import { z } from 'zod'
import { monotonicNow } from '../../clock'

const takeSchema = z.object({
  token: z.uuid().nullable(),
  epoch: z.number().int().optional(),
  serverMs: z.number().finite(),
})
const renewSchema = z.object({ ok: z.boolean(), serverMs: z.number().finite() })
const statusSchema = z.object({
  holder: z.string().max(200),
  epoch: z.coerce.number().int(),
  age_ms: z.coerce.number().finite(),
  lapsed: z.boolean(),
})

/** Who leads the team's tracker, as the server sees it now. */
export interface LeaseStatus {
  /** The database role of the desk that took the lease last. */
  holder: string
  epoch: number
  /** Since its last heartbeat (server clock). */
  heartbeatAgeMs: number
  /** Its expiry has passed: nobody leads until a desk takes it (at its next attempt). */
  lapsed: boolean
}

/**
 * The server's clock as this desk estimates it: the freshest round trip's server time, carried forward on the
 * monotonic clock (so a step of the desk's wall clock does not move it). `skewMs`: server minus desk wall clock.
 */
export class ServerClock {
  #offset: number | null = null
  #skew: number | null = null

  /** Records one reading taken between `sentAt` and `gotAt` (monotonic ms). */
  observe(serverMs: number, sentAt: number, gotAt: number, wallAtGot = Date.now()): void {
    const mid = (sentAt + gotAt) / 2
    this.#offset = serverMs - mid
    this.#skew = serverMs + (gotAt - mid) - wallAtGot
  }

  /** Estimated server time in epoch ms, or null before the first reading. */
  now(): number | null {
    return this.#offset === null ? null : monotonicNow() + this.#offset
  }

  get skewMs(): number | null {
    return this.#skew
  }
}

type Q = Pick<pg.ClientBase, 'query'>

export async function takeLease(
  c: Q,
  leaseMs: number,
  clock: ServerClock,
): Promise<{ token: string | null; epoch: number | null }> {
  const sent = monotonicNow()
  const r = await c.query('SELECT take_tracker_lease($1) AS l', [leaseMs])
  const v = takeSchema.parse(r.rows[0]?.l)
  clock.observe(v.serverMs, sent, monotonicNow())
  return { token: v.token, epoch: v.epoch ?? null }
}

export async function renewLease(c: Q, token: string, leaseMs: number, clock: ServerClock): Promise<boolean> {
  const sent = monotonicNow()
  const r = await c.query('SELECT renew_tracker_lease($1, $2) AS l', [token, leaseMs])
  const v = renewSchema.parse(r.rows[0]?.l)
  clock.observe(v.serverMs, sent, monotonicNow())
  return v.ok
}

export async function releaseLease(c: Q, token: string): Promise<void> {
  await c.query('SELECT release_tracker_lease($1)', [token])
}

export async function readLease(c: Q): Promise<LeaseStatus | null> {
  const r = await c.query(
    `SELECT holder, epoch, extract(epoch FROM clock_timestamp() - renewed_at) * 1000 AS age_ms,
       expires_at <= clock_timestamp() AS lapsed FROM tracker_lease WHERE epoch > 0`,
  )
  if (!r.rows[0]) return null
  const v = statusSchema.parse(r.rows[0])
  return {
    holder: v.holder,
    epoch: v.epoch,
    heartbeatAgeMs: Math.max(0, Math.round(v.age_ms)),
    lapsed: v.lapsed,
  }
}
