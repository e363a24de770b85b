/**
 * One status tracker per team. Every desk runs a `TrackerLeadership`; the one holding a session-level advisory
 * lock on its own dedicated connection is the leader and polls the API, the others read statuses from the ledger
 * and hear changes through LISTEN depix_records (schema.ts notifies on every record change) and approval
 * requests and decisions through LISTEN depix_approvals.
 *
 * The lock lives as long as the leader's connection: if its desk crashes, loses the network or its backend is
 * terminated, PostgreSQL releases the lock and the next desk's attempt (every `retryMs`, default 10 s, well inside
 * the 30 s the team allows) takes it. A desk whose connection broke stops being leader at once (it can no longer
 * prove it holds the lock) and reconnects.
 */
import { EventEmitter } from 'node:events'
import pg from 'pg'
import { monotonicNow } from '../../clock'
import { SCHEMA } from './schema'
import { parseSettings, readSettings, type TeamSettingsEvent } from './settings-event'

/** Advisory-lock key (two int4s): the team's tracker. */
const LOCK_A = 727_016
const LOCK_B = 1

export interface RecordChange {
  localId: string
  displayStatus: string
  updatedAt: string
}

/** An approval requested or decided on some desk (the queue and its notifications). */
export interface ApprovalEvent {
  id: string
  localId: string
  state: string
  requestedBy: string
  decidedBy: string | null
}

export interface LeadershipOptions {
  connection: pg.ClientConfig
  /** How often a follower tries to take the lead, and a broken connection is reopened. Default 10 s. */
  retryMs?: number
}

export interface TrackerLeadership {
  readonly isLeader: boolean
  /** The backend pid of the dedicated connection (null while disconnected). */
  readonly backendPid: number | null
  on(event: 'leader', l: (isLeader: boolean) => void): void
  on(event: 'change', l: (c: RecordChange) => void): void
  /** A deposit (top-up) changed on some desk: LISTEN depix_deposits (migration-deposits.ts). */
  on(event: 'deposit', l: (c: RecordChange) => void): void
  on(event: 'approval', l: (a: ApprovalEvent) => void): void
  /** A receipt was registered (`pending`: the leading desk fetches it), stored or given up, on any desk. */
  on(event: 'receipt', l: (r: ReceiptEvent) => void): void
  /** A payment run changed on some desk (LISTEN depix_runs, runs migration): its id. */
  on(event: 'run', l: (runId: string) => void): void
  /** A payee-book entry was created, changed or removed on some desk (LISTEN depix_payees): its id. */
  on(event: 'payee', l: (id: string) => void): void
  /** The team settings: on every (re)connect, then on each change (LISTEN depix_settings, migration 7). */
  on(event: 'settings', l: (s: TeamSettingsEvent) => void): void
  /** The dedicated connection is up, so `settings` events are current. */
  readonly listening: boolean
  off(
    event: 'leader' | 'change' | 'deposit' | 'approval' | 'receipt' | 'run' | 'payee' | 'settings',
    l: (v: never) => void,
  ): void
  /** Resolves after the first attempt (connected or not). */
  ready(): Promise<void>
  stop(): Promise<void>
}

function parseChange(payload: string | undefined): RecordChange | null {
  try {
    const v = JSON.parse(payload ?? '') as Record<string, unknown>
    if (
      typeof v.localId !== 'string' ||
      typeof v.displayStatus !== 'string' ||
      typeof v.updatedAt !== 'string'
    ) {
      return null
    }
    return { localId: v.localId, displayStatus: v.displayStatus, updatedAt: v.updatedAt }
  } catch {
    return null
  }
}

/** `payload[key]` when the payload is JSON holding an id there; anything else (a spoofed NOTIFY) is dropped. */
function parseId(payload: string | undefined, key: string): string | null {
  try {
    const v = JSON.parse(payload ?? '') as Record<string, unknown>
    const id = v[key]
    return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null
  } catch {
    return null
  }
}

const parseRunId = (payload: string | undefined): string | null => parseId(payload, 'runId')

function parseApproval(payload: string | undefined): ApprovalEvent | null {
  try {
    const v = JSON.parse(payload ?? '') as Record<string, unknown>
    const str = (x: unknown): x is string => typeof x === 'string'
    if (!str(v.id) || !str(v.localId) || !str(v.state) || !str(v.requestedBy)) return null
    return {
      id: v.id,
      localId: v.localId,
      state: v.state,
      requestedBy: v.requestedBy,
      decidedBy: str(v.decidedBy) ? v.decidedBy : null,
    }
  } catch {
    return null
  }
}

export interface ReceiptEvent {
  localId: string
  state: string
}

function parseReceipt(payload: string | undefined): ReceiptEvent | null {
  try {
    const v = JSON.parse(payload ?? '') as Record<string, unknown>
    return typeof v.localId === 'string' && typeof v.state === 'string'
      ? { localId: v.localId, state: v.state }
      : null
  } catch {
    return null
  }
}

export function startLeadership(o: LeadershipOptions): TrackerLeadership {
  const retryMs = o.retryMs ?? 10_000
  const events = new EventEmitter()
  let client: pg.Client | null = null
  let leader = false
  let pid: number | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let firstAttempt: Promise<void> | null = null

  const setLeader = (v: boolean): void => {
    if (v === leader) return
    leader = v
    events.emit('leader', v)
  }

  /** When this desk last lost its connection (monotonic ms); null: never. */
  let lostAt: number | null = null
  const drop = (c: pg.Client): void => {
    if (client !== c) return
    client = null
    pid = null
    lostAt = monotonicNow()
    setLeader(false)
    c.end().catch(() => undefined)
  }

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({ ...o.connection, options: `-c search_path=${SCHEMA},pg_temp` })
    c.on('error', () => drop(c))
    c.on('end', () => drop(c))
    c.on('notification', (n) => {
      if (n.channel === 'depix_records') {
        const change = parseChange(n.payload)
        if (change) events.emit('change', change)
      } else if (n.channel === 'depix_deposits') {
        const change = parseChange(n.payload)
        if (change) events.emit('deposit', change)
      } else if (n.channel === 'depix_approvals') {
        const a = parseApproval(n.payload)
        if (a) events.emit('approval', a)
      } else if (n.channel === 'depix_receipts') {
        const r = parseReceipt(n.payload)
        if (r) events.emit('receipt', r)
      } else if (n.channel === 'depix_runs') {
        const runId = parseRunId(n.payload)
        if (runId !== null) events.emit('run', runId)
      } else if (n.channel === 'depix_payees') {
        const id = parseId(n.payload, 'id')
        if (id !== null) events.emit('payee', id)
      } else if (n.channel === 'depix_settings') {
        // Any role may NOTIFY this channel: the payload only says "read it again"; the value comes from the table.
        if (parseSettings(n.payload))
          readSettings(c)
            .then((s) => {
              if (s) events.emit('settings', s)
            })
            .catch(() => undefined)
      }
    })
    await c.connect()
    await c.query(
      'LISTEN depix_records; LISTEN depix_deposits; LISTEN depix_approvals; LISTEN depix_receipts; LISTEN depix_runs; LISTEN depix_payees; LISTEN depix_settings',
    )
    pid = Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0]?.pid)
    // Read after LISTEN: a change between the two is heard, one before it is read.
    const settings = await readSettings(c)
    if (settings) events.emit('settings', settings)
    return c
  }

  const attempt = async (): Promise<void> => {
    if (stopped) return
    // A desk whose connection just broke sits out a few rounds before reconnecting: a healthy desk takes the lead
    // first, rather than the one whose network is flapping winning it back.
    if (!client && lostAt !== null && monotonicNow() - lostAt < 3 * retryMs) return
    try {
      if (!client) client = await connect()
      if (!leader) {
        const r = await client.query('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_A, LOCK_B])
        if (r.rows[0]?.ok === true) setLeader(true)
      } else {
        // Still connected means still holding the lock; the round trip proves the connection is alive.
        await client.query('SELECT 1')
      }
    } catch {
      if (client) drop(client)
    }
  }

  const loop = (): void => {
    if (stopped) return
    timer = setTimeout(() => {
      void attempt().finally(loop)
    }, retryMs)
  }
  firstAttempt = attempt().finally(loop)

  return {
    get isLeader() {
      return leader
    },
    get backendPid() {
      return pid
    },
    get listening() {
      return client !== null
    },
    on: (event: string, l: (v: never) => void) => {
      events.on(event, l as (v: unknown) => void)
    },
    off: (event: string, l: (v: never) => void) => {
      events.off(event, l as (v: unknown) => void)
    },
    ready: () => firstAttempt ?? Promise.resolve(),
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      const c = client
      client = null
      pid = null
      setLeader(false)
      // Ending the session releases the lock for the next desk at once.
      if (c) await c.end().catch(() => undefined)
    },
  } as TrackerLeadership
}
