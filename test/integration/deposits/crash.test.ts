/**
 * Crash safety of "Comprar DePix" with a real process kill, as for withdrawals (test/integration/withdrawals/
 * crash.test.ts): a child process creates a deposit through the real service against the sandbox (running here)
 * and is SIGKILLed (a) after the journal write, before the POST; (b) while the POST is in flight; (c) after the
 * answer is stored. Then a new service opens the ledger, as after a restart: one record per intent, in the state
 * that is true, at most one POST per intent counted at the sandbox, and none ever again.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import { kill, line, SLOW_POST_MS, type Child } from '../withdrawals/child'
import { depositRig, tempLedgerFile, TREASURY_ADDRESS, type DepositRig } from './helpers'

const REPO = path.resolve(__dirname, '../../..')
const CHILD = path.join(__dirname, 'fixtures', 'crash-child.ts')

let sb: Sandbox
let dir: string
let file: string
const posts = () => sb.control.requestCounts()['POST /api/deposit'] ?? 0

function startChild(mode: string, cents: number): Child {
  const proc = spawn(
    process.execPath,
    [
      '--no-warnings',
      '--import',
      'tsx',
      CHILD,
      sb.baseUrl,
      sb.credentials.clientId,
      sb.credentials.clientSecret,
      file,
      mode,
      String(cents),
      TREASURY_ADDRESS,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const lines: string[] = []
  const stderr: string[] = []
  createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l))
  createInterface({ input: proc.stderr as NodeJS.ReadableStream }).on('line', (l) => stderr.push(l))
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('exit', (code, signal) => resolve(signal ?? code)),
  )
  return { proc, lines, stderr, exited }
}

beforeAll(async () => {
  sb = await startSandbox()
  ;({ dir, file } = tempLedgerFile())
})
afterAll(async () => {
  await sb.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('SIGKILL during a deposit create, then restart', () => {
  const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' }

  it('(a) killed after the journal write, before the POST: nothing sent', async () => {
    const c = startChild('before-post', 10_000)
    ids.a = (await line(c, /^journaled (\S+)$/))[1] as string
    await new Promise((r) => setTimeout(r, 300))
    expect(posts()).toBe(0)
    await kill(c)
    expect(posts()).toBe(0)
  }, 30_000)

  it('(b) killed while the POST is in flight: the sandbox received exactly one', async () => {
    sb.control.injectFault({ kind: 'slow', delayMs: SLOW_POST_MS, endpoint: 'deposit' })
    const c = startChild('in-flight', 11_000)
    ids.b = (await line(c, /^journaled (\S+)$/))[1] as string
    await waitForPosts(1)
    expect(c.lines.some((l) => l.startsWith('stored'))).toBe(false)
    await kill(c)
    expect(posts()).toBe(1)
  }, 30_000)

  it('(c) killed after the answer was stored', async () => {
    const c = startChild('after-store', 12_000)
    const m = await line(c, /^stored (\S+) (\S+)$/)
    ids.c = m[1] as string
    expect(m[2]).toBe('created')
    await kill(c)
    expect(posts()).toBe(2)
  }, 30_000)

  it('after restart: one record per intent, in the true state, and nothing is ever resent', async () => {
    // Let the held POST of (b) run its course on the sandbox side first.
    await new Promise((r) => setTimeout(r, SLOW_POST_MS))
    let r: DepositRig | undefined
    try {
      r = await depositRig({
        sb,
        file,
        service: { tracker: { cadence: { hotIntervalMs: 100, resyncMs: 200 } } },
      })
      const rows = r.ledger.deposits.query({ limit: 100 }).rows
      expect(rows).toHaveLength(3)
      const byId = new Map(rows.map((x) => [x.localId, x]))
      const a = byId.get(ids.a) as DepositRecord
      const b = byId.get(ids.b) as DepositRecord
      const c = byId.get(ids.c) as DepositRecord
      expect(a).toMatchObject({ localState: 'outcome_unknown', amountCents: 10_000, remoteId: null })
      expect(b).toMatchObject({ localState: 'outcome_unknown', amountCents: 11_000, remoteId: null })
      expect(c).toMatchObject({ localState: 'created', amountCents: 12_000 })
      for (const id of [ids.a, ids.b]) {
        const recovery = r.ledger
          .audit({ subject: id })
          .rows.find((e) => e.action === 'deposit.outcome_unknown')
        expect(recovery).toMatchObject({ operator: 'system', details: { reason: 'interrupted' } })
      }
      expect(r.ledger.verifyAuditChain()).toMatchObject({ ok: true })

      const remote = sb.control.state().deposits
      expect(remote.filter((d) => d.valueInCents === 10_000)).toHaveLength(0)
      expect(remote.filter((d) => d.valueInCents === 11_000).length).toBeLessThanOrEqual(1)
      expect(remote.filter((d) => d.valueInCents === 12_000)).toHaveLength(1)

      // The tracker runs a while: it polls the created one, never POSTs.
      r.service.tracker.start()
      const gets = r.statusGets()
      await new Promise((x) => setTimeout(x, 1_000))
      expect(r.statusGets()).toBeGreaterThan(gets)
      expect(posts()).toBe(2)

      // The operator resolves the unknowns from what support (here: the sandbox) knows.
      const held = remote.find((d) => d.valueInCents === 11_000)
      const bDone = await r.service.resolveUnknown(
        ids.b,
        held ? { depositId: held.qrId } : { notCreated: true },
      )
      expect(bDone.localState).toBe(held ? 'created' : 'not_created')
      expect((await r.service.resolveUnknown(ids.a, { notCreated: true })).localState).toBe('not_created')
      expect(posts()).toBe(2)
    } finally {
      await r?.close()
    }
  }, 30_000)
})

async function waitForPosts(n: number): Promise<void> {
  const until = Date.now() + 10_000
  while (posts() < n) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${n} POST(s)`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
