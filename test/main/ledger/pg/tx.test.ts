/**
 * `read` on a pool holding connections the server has dropped: the read is tried again on a fresh connection, never
 * reported as "connection lost" while the server is up; a refusal by the server, or a server that cannot be
 * reached, is reported at once. A stub pool makes every case deterministic; the last test does it for real, through
 * a loopback proxy that drops the server side of idle connections and leaves the desk's side open (what a NAT or a
 * firewall does to an idle connection), so the pool still believes in them.
 */
import net from 'node:net'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPgStore, type PgLedgerStore } from '../../../../src/main/ledger/engines'
import { TeamLedgerError } from '../../../../src/main/ledger/team-errors'
import { read } from '../../../../src/main/ledger/pg/tx'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

type Step = 'dead' | 'ok' | 'denied'

/** A pool whose connections answer as `steps` says, one per connection handed out. */
function stubPool(steps: Step[], connectFails = false) {
  const log = { connects: 0, released: [] as Array<boolean | undefined> }
  const pool = {
    options: { max: 4 },
    connect: async () => {
      log.connects += 1
      if (connectFails)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
      const step = steps.shift() ?? 'dead'
      return {
        on: () => undefined,
        off: () => undefined,
        release: (broken?: boolean) => void log.released.push(broken),
        query: async () => {
          if (step === 'dead') throw new Error('Connection terminated unexpectedly')
          if (step === 'denied') throw Object.assign(new Error('permission denied'), { code: '42501' })
          return { rows: [{ n: 1 }] }
        },
      }
    },
  }
  return { pool: pool as unknown as pg.Pool, log }
}

const one = (c: pg.PoolClient) => c.query('SELECT 1 AS n').then((r) => r.rows[0])

describe('read on stale pooled connections', () => {
  it('discards dropped connections and answers from a fresh one', async () => {
    const { pool, log } = stubPool(['dead', 'dead', 'ok'])
    expect(await read(pool, one)).toEqual({ n: 1 })
    expect(log.connects).toBe(3)
    // The two dead ones are destroyed, the good one goes back to the pool.
    expect(log.released).toEqual([true, true, undefined])
  })

  it('gives up as "unavailable" once more connections than the pool holds have failed', async () => {
    const { pool, log } = stubPool([])
    const e = await read(pool, one).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(TeamLedgerError)
    expect((e as TeamLedgerError).code).toBe('unavailable')
    expect(log.connects).toBe(5)
  })

  it('does not try again a refusal by the server or a server that cannot be reached', async () => {
    const denied = stubPool(['denied', 'ok'])
    const e = await read(denied.pool, one).catch((x: unknown) => x)
    expect((e as TeamLedgerError).code).toBe('permission_denied')
    expect(denied.log.connects).toBe(1)
    expect(denied.log.released).toEqual([undefined])

    const down = stubPool([], true)
    const d = await read(down.pool, one).catch((x: unknown) => x)
    expect((d as TeamLedgerError).code).toBe('unavailable')
    expect(down.log.connects).toBe(1)
  })
})

announceSkip('read on stale pooled connections (postgres)')

/** A loopback proxy to PostgreSQL; `dropUpstream()` closes the server side of every open connection. */
async function startProxy(target: { host: string; port: number }) {
  const upstreams = new Set<net.Socket>()
  const server = net.createServer((down) => {
    const up = net.connect(target.port, target.host)
    upstreams.add(up)
    down.pipe(up)
    up.pipe(down, { end: false })
    up.on('close', () => {
      upstreams.delete(up)
      down.unpipe(up)
      // The desk's side stays open until it writes: then it is cut, as a dropped NAT entry does.
      down.once('data', () => down.destroy())
      down.resume()
    })
    up.on('error', () => undefined)
    down.on('error', () => up.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    dropUpstream: async () => {
      const closing = [...upstreams].map((u) => new Promise((r) => u.once('close', r)))
      for (const u of upstreams) u.destroy()
      await Promise.all(closing)
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('read on stale pooled connections (postgres)', () => {
  let team: Team
  let store: PgLedgerStore
  let proxy: Awaited<ReturnType<typeof startProxy>>

  beforeAll(async () => {
    team = await startTeam()
    await team.addAnalyst('ana')
    const cfg = team.config('ana')
    proxy = await startProxy({ host: String(cfg.host), port: Number(cfg.port) })
    store = await openPgStore({ connection: { ...cfg, host: '127.0.0.1', port: proxy.port } })
  }, 60_000)
  afterAll(async () => {
    await store?.close()
    await proxy?.close()
    await team?.stop()
  })

  it('every idle connection dropped behind the desk’s back: the next reads still answer', async () => {
    // Four connections in the pool, all idle.
    await Promise.all([1, 2, 3, 4].map(() => store.pool.query('SELECT pg_sleep(0.05)')))
    expect(store.pool.idleCount).toBe(4)
    await proxy.dropUpstream()
    expect(store.pool.idleCount).toBe(4)
    const page = await store.query({})
    expect(page.total).toBe(0)
    expect(await store.get('nenhum')).toBeUndefined()
    expect(await store.auditHead()).toBeDefined()
  }, 30_000)
})
