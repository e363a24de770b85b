/**
 * Profile switch and quit during a create (issue #11): the sandbox holds the POST longer than the client's close
 * grace (2 s); main waits for the answer, tells the renderer why, and the record ends `created` with its id —
 * not `outcome_unknown` — and the next runtime's recovery does not take it over.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

const HOLD_MS = 3_500

let dataDir = ''
let ctx: AppContext | null = null
afterEach(async () => {
  await ctx?.close()
  ctx = null
  rmSync(dataDir, { recursive: true, force: true })
})

async function start(): Promise<{ ctx: AppContext; events: Array<{ event: string; payload: unknown }> }> {
  dataDir = mkdtempSync(join(tmpdir(), 'switch-create-'))
  const c = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
  })
  const events: Array<{ event: string; payload: unknown }> = []
  c.onEvent((event, payload) => events.push({ event, payload }))
  ctx = c
  return { ctx: c, events }
}

async function call<T>(c: AppContext, channel: string, input?: unknown): Promise<T> {
  const r = (await c.router.handle(channel, input)) as { ok: boolean; data?: T; error?: unknown }
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
  return r.data as T
}

/** Quotes and starts a create whose POST the sandbox holds; resolves once the POST is out and held. */
async function startHeldCreate(c: AppContext): Promise<{ created: Promise<WithdrawalRecord> }> {
  const sb = c.sandbox!
  await call(c, 'session:signIn')
  sb.control.injectFault({ kind: 'slow', delayMs: HOLD_MS, endpoint: 'withdraw' })
  const draft = {
    pixKey: 'fulano@example.com',
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents: 4_200 },
    refundAddress: generateLiquidAddress('liquid').address,
  }
  const q = await call<{ intent: { id: string } }>(c, 'withdrawals:quote', { draft })
  let journaled = false
  const off = c.onEvent((event, payload) => {
    if (event === 'withdrawal:changed' && (payload as WithdrawalRecord).localState === 'submitting')
      journaled = true
  })
  const created = call<WithdrawalRecord>(c, 'withdrawals:create', { draft, intentId: q.intent.id })
  const until = Date.now() + 10_000
  while (!journaled) {
    if (Date.now() > until) throw new Error('the create was never journaled')
    await new Promise((r) => setTimeout(r, 20))
  }
  off()
  // Give the POST time to leave and reach the sandbox, which holds it for HOLD_MS.
  await new Promise((r) => setTimeout(r, 300))
  expect(c.runtime().withdrawals.creating()).toBe(1)
  // Wrapped: an async function returning the promise itself would wait for it.
  return { created }
}

describe('an in-flight create survives a profile switch and a quit', () => {
  it('switch: waits for the POST, says why, the record ends created with its id', async () => {
    const { ctx: c, events } = await start()
    const sb = c.sandbox!
    const live = sb.control.createCredential({ label: 'other' })
    const other = await call<{ id: string }>(c, 'profiles:addLive', {
      name: 'Outro',
      baseUrl: sb.baseUrl,
      network: 'liquid',
      auth: { kind: 'client_credentials', clientId: live.clientId, clientSecret: live.clientSecret },
    })
    const { created } = await startHeldCreate(c)
    const switched = call(c, 'profiles:select', { id: other.id })
    // While it waits, new calls are refused plainly and the renderer is told why.
    await new Promise((r) => setTimeout(r, 200))
    expect(events.filter((e) => e.event === 'app:waiting').map((e) => e.payload)).toEqual([
      { reason: 'create_in_flight', action: 'switch_profile', creates: 1 },
    ])
    const busy = (await c.router.handle('withdrawals:list', {})) as { ok: boolean; error?: { code: string } }
    expect(busy).toMatchObject({ ok: false, error: { code: 'not_ready' } })

    const rec = await created
    await switched
    const remote = sb.control.state().withdrawals
    expect(remote).toHaveLength(1)
    expect(rec).toMatchObject({ localState: 'created', remoteId: remote[0]!.id })
    expect(c.ledger.get(rec.localId)).toMatchObject({ localState: 'created', remoteId: remote[0]!.id })
    expect(events.filter((e) => e.event === 'app:waiting').map((e) => e.payload)).toEqual([
      { reason: 'create_in_flight', action: 'switch_profile', creates: 1 },
      null,
    ])
    // The renderer heard the outcome before the old runtime's events were cut off.
    const changed = events.filter((e) => e.event === 'withdrawal:changed').map((e) => e.payload)
    expect(changed.at(-1)).toMatchObject({ localId: rec.localId, localState: 'created' })
    expect(c.runtime().profile.id).toBe(other.id)
    expect(sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
  }, 30_000)

  it('quit: close waits for the POST; the ledger file holds the record as created', async () => {
    const { ctx: c, events } = await start()
    const sb = c.sandbox!
    const { created } = await startHeldCreate(c)
    const closing = c.close()
    ctx = null
    const rec = await created
    // close() stops the embedded sandbox last: read what it created before it goes.
    const remoteId = sb.control.state().withdrawals[0]?.id
    await closing
    expect(rec).toMatchObject({ localState: 'created', remoteId })
    expect(events.find((e) => e.event === 'app:waiting')?.payload).toMatchObject({ action: 'quit' })
    const ledger = openLedger(join(dataDir, 'ledger.sqlite'))
    try {
      expect(ledger.get(rec.localId)).toMatchObject({ localState: 'created', remoteId })
    } finally {
      ledger.close()
    }
  }, 30_000)
})
