/**
 * One status tracker per team. Every desk runs a `TrackerLeadership` on its own dedicated connection; the desk
 * holding the tracker lease (migration-leadership.ts) leads and polls the API, the others read statuses from the
 * ledger and hear changes through LISTEN depix_records (schema.ts notifies on every record change) and approval
 * requests and decisions through LISTEN depix_approvals.
 *
 * Liveness is proven both ways. The lead renews its lease every `retryMs` (default 5 s); its expiry (`leaseMs`,
 * default 15 s) is set on the server's clock, and followers take the lease only once it has lapsed, so a lead whose
 * laptop froze, whose network vanished without closing the connection, or whose session the server ended without
 * telling it, is replaced within a lease and a retry (≤ 20 s). The lead stops leading on its own monotonic clock
 * before that expiry can pass (`leaseMs` less a fifth, counted from the moment it sent its last successful
 * renewal), and the database refuses its tracker writes once its token is not the current one (tracker_fence),
 * so two desks never poll at once. The dedicated connection has TCP keepalives on both ends and a query timeout:
 * a dead peer is noticed in seconds, not after the 15 min–2 h a kernel waits by default. A clean stop hands the
 * lease back at once.
 */
import { EventEmitter } from 'node:events'
import pg from 'pg'
import { CLOCK_SKEW_NOTICE_MS } from '../../../shared/channels-team'
import { monotonicNow } from '../../clock'
import { readLease, releaseLease, renewLease, ServerClock, takeLease, type LeaseStatus } from './lease'
import { SCHEMA } from '../pg/schema'
import { parseSettings, readSettings, type TeamSettingsEvent } from '../pg/settings-event'

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
  /**
   * How often the lead renews its lease, a follower tries to take it, and a broken connection is reopened.
   * Default 5 s.
   */
  retryMs?: number
  /** How long a renewal holds the lease (server clock). Default 15 s; at least 3 × retryMs. */
  leaseMs?: number
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
  /** This desk's clock began, or stopped, differing from the server's by more than CLOCK_SKEW_NOTICE_MS. */
  on(event: 'clock', l: (skewMs: number) => void): void
  /** The dedicated connection is up, so `settings` events are current. */
  readonly listening: boolean
  off(
    event: 'leader' | 'change' | 'deposit' | 'approval' | 'receipt' | 'run' | 'payee' | 'settings' | 'clock',
    l: (v: never) => void,
  ): void
  /** The token of the lease this desk holds while leading (the tracker's writes carry it), else null. */
  readonly fenceToken: string | null
  /** The server's clock as this desk estimates it (epoch ms), or null before the first round trip. */
  serverNow(): number | null
  /** Server time minus this desk's wall clock, from the last round trip; null before the first. */
  readonly clockSkewMs: number | null
  /** Who leads and how fresh its heartbeat is, as the server sees it (null: nobody has led; undefined: unknown). */
  leaseStatus(): Promise<LeaseStatus | null | undefined>
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

/** How often the lead checks whether its computer slept (the wall clock gained on the monotonic one). */
const SLEEP_CHECK_MS = 1_000

/** The socket under a client, destroyed when a frozen connection must be let go (end() would wait on it). */
const destroySocket = (c: pg.Client): void =>
  (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()

export function startLeadership(o: LeadershipOptions): TrackerLeadership {
  const retryMs = o.retryMs ?? 5_000
  const leaseMs = Math.max(o.leaseMs ?? 15_000, 3 * retryMs)
  // The lead stops a fifth of a lease (at least 1 s) before its expiry could pass, counted from when it sent its
  // renewal: the server set the expiry later than that, so the lead is always first.
  const holdMs = leaseMs - Math.max(1_000, leaseMs / 5)
  const queryTimeoutMs = Math.min(5_000, Math.floor(holdMs / 2))
  const clock = new ServerClock()
  const events = new EventEmitter()
  let client: pg.Client | null = null
  let leader = false
  let token: string | null = null
  let pid: number | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let watchdog: NodeJS.Timeout | null = null
  let firstAttempt: Promise<void> | null = null
  /** When this desk last lost its connection, and last lost the lead (monotonic ms); null: never. */
  let lostAt: number | null = null
  let lostLeadAt: number | null = null

  const setLeader = (v: boolean): void => {
    if (v === leader) return
    leader = v
    events.emit('leader', v)
  }

  const stepDown = (): void => {
    if (watchdog) clearTimeout(watchdog)
    watchdog = null
    if (token === null && !leader) return
    token = null
    lostLeadAt = monotonicNow()
    setLeader(false)
  }

  /** A renewal sent at `sentAt` succeeded: lead until holdMs after it, unless the next one succeeds first. */
  const hold = (sentAt: number): void => {
    if (watchdog) clearTimeout(watchdog)
    watchdog = setTimeout(stepDown, Math.max(0, sentAt + holdMs - monotonicNow()))
    heldFrom = sentAt
    slept = 0
  }

  // A laptop that slept does not count the sleep on the monotonic clock (nor do its timers), so after waking it
  // would lead on, for up to holdMs, a lease another desk took meanwhile. The wall clock does count it: time the
  // wall clock gained on the monotonic one since the last renewal counts as held time.
  let heldFrom = 0
  let slept = 0
  let lastWall = Date.now()
  let lastMono = monotonicNow()
  const sleepCheck = setInterval(() => {
    const wall = Date.now()
    const mono = monotonicNow()
    slept += Math.max(0, wall - lastWall - (mono - lastMono))
    lastWall = wall
    lastMono = mono
    if (leader && mono - heldFrom + slept >= holdMs) stepDown()
  }, SLEEP_CHECK_MS)
  sleepCheck.unref()

  const drop = (c: pg.Client): void => {
    if (client !== c) return
    client = null
    pid = null
    lostAt = monotonicNow()
    stepDown()
    destroySocket(c)
    c.end().catch(() => undefined)
  }

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({
      ...o.connection,
      // Both ends notice a peer that vanished: the server's keepalives end a dead desk's session, the desk's a
      // dead server's; a query that hangs (a frozen path) fails after queryTimeoutMs.
      options:
        `-c search_path=${SCHEMA},pg_temp -c statement_timeout=${queryTimeoutMs} ` +
        `-c idle_in_transaction_session_timeout=${2 * queryTimeoutMs} ` +
        `-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      query_timeout: queryTimeoutMs,
      connectionTimeoutMillis: o.connection.connectionTimeoutMillis ?? 10_000,
    })
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
    try {
      await c.connect()
      await c.query(
        'LISTEN depix_records; LISTEN depix_deposits; LISTEN depix_approvals; LISTEN depix_receipts; LISTEN depix_runs; LISTEN depix_payees; LISTEN depix_settings',
      )
      pid = Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0]?.pid)
      // Read after LISTEN: a change between the two is heard, one before it is read.
      const settings = await readSettings(c)
      if (settings) events.emit('settings', settings)
    } catch (e) {
      destroySocket(c)
      c.end().catch(() => undefined)
      throw e
    }
    return c
  }

  /** Whether the last reading put this desk's clock more than the notice's limit off the server's. */
  let skewed: boolean | null = null
  const noticeSkew = (): void => {
    const skew = clock.skewMs
    if (skew === null) return
    const now = Math.abs(skew) > CLOCK_SKEW_NOTICE_MS
    if (now === skewed) return
    skewed = now
    events.emit('clock', skew)
  }

  const attempt = async (): Promise<void> => {
    if (stopped) return
    // A desk whose connection just broke sits out a few rounds before reconnecting: a healthy desk takes the lead
    // first, rather than the one whose network is flapping winning it back.
    if (!client && lostAt !== null && monotonicNow() - lostAt < 3 * retryMs) return
    try {
      if (!client) client = await connect()
      const c = client
      const held = token
      const sent = monotonicNow()
      if (held !== null) {
        const ok = await renewLease(c, held, leaseMs, clock)
        if (ok && token === held) hold(sent)
        else if (ok)
          await releaseLease(c, held) // stepped down meanwhile: hand back what was just renewed
        else stepDown()
        return
      }
      // A desk that lost the lead leaves the others a lease's time to take it before competing again.
      if (lostLeadAt !== null && monotonicNow() - lostLeadAt < leaseMs + retryMs) return
      const took = await takeLease(c, leaseMs, clock)
      if (took.token === null) return
      if (stopped || client !== c) {
        await releaseLease(c, took.token).catch(() => undefined)
        return
      }
      token = took.token
      hold(sent)
      setLeader(true)
    } catch {
      if (client) drop(client)
    } finally {
      noticeSkew()
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
    get fenceToken() {
      return leader ? token : null
    },
    get clockSkewMs() {
      return clock.skewMs
    },
    serverNow: () => clock.now(),
    leaseStatus: async () => {
      const c = client
      if (!c) return undefined
      return readLease(c).catch(() => undefined)
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
      clearInterval(sleepCheck)
      const c = client
      const held = token
      client = null
      pid = null
      stepDown()
      // Handing the lease back lets the next desk lead at once.
      if (c && held !== null) await releaseLease(c, held).catch(() => undefined)
      if (c) await c.end().catch(() => undefined)
    },
  } as TrackerLeadership
}
