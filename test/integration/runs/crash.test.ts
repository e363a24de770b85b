/**
 * Crash safety of a run. A child process creates a wave through the real services and is SIGKILLed while one
 * row's POST is held in flight by the sandbox; the ledger is then reopened as after a restart. The run shows where
 * it stopped (paused), the row in flight is outcome_unknown for the operator, the rest wait for "resume", and
 * resuming sends each remaining row exactly once: POSTs counted at the sandbox equal the rows, and no Pix key was
 * sent twice.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { REFUND_ADDRESS, runCsv, runRig, tempLedgerFile } from './helpers'

const REPO = path.resolve(__dirname, '../../..')
const CHILD = path.join(__dirname, 'fixtures', 'run-child.ts')
const N = 6
const HOLD_MS = 1_500

let sb: Sandbox
let dir: string
let file: string
const posts = () => sb.control.requestCounts()['POST /api/withdraw'] ?? 0

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: { withdraw: 600 } })
  ;({ dir, file } = tempLedgerFile())
})
afterAll(async () => {
  await sb.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

async function until(what: string, f: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('a run killed mid-wave', () => {
  it('restarts paused, the POST in flight is outcome_unknown, resume sends the rest exactly once', async () => {
    // Every POST is held: the kill lands while the third one is in flight.
    sb.control.injectFault({ kind: 'slow', delayMs: HOLD_MS, endpoint: 'withdraw', count: 3 })
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
        REFUND_ADDRESS,
        String(N),
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const stderr: string[] = []
    createInterface({ input: proc.stderr }).on('line', (l) => stderr.push(l))
    const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve(signal ?? code)))
    await until(
      `the third POST (child stderr: ${stderr.join(' | ')})`,
      () => posts() === 3 || proc.exitCode !== null,
    )
    proc.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    expect(posts()).toBe(3)
    // The held POST finishes on the sandbox's side: that withdrawal exists, nobody knows its id.
    await new Promise((r) => setTimeout(r, HOLD_MS + 200))

    const r = await runRig({ sb, file })
    try {
      const [run] = await r.runs.list()
      let d = await r.runs.detail(run!.runId)
      expect(d.run.state).toBe('paused')
      expect(d.rows.map((x) => x.outcome)).toEqual([
        'created',
        'created',
        'outcome_unknown',
        'queued',
        'queued',
        'queued',
      ])
      expect(posts()).toBe(3)
      const audit = r.ledger.audit({ subject: run!.runId }).rows.map((e) => e.action)
      expect(audit).toContain('run.interrupted')

      d = await r.runs.resume(run!.runId)
      await r.runs.idle(run!.runId)
      d = await r.runs.detail(run!.runId)
      expect(d.run.state).toBe('awaiting_funding')
      expect(d.rows.map((x) => x.outcome)).toEqual([
        'created',
        'created',
        'outcome_unknown',
        'created',
        'created',
        'created',
      ])
      expect(posts()).toBe(N)
      const keys = sb.control
        .state()
        .withdrawals.map((w) => w.pixKey)
        .sort()
      expect(keys).toEqual(Array.from({ length: N }, (_, i) => `c${i}@example.com`).sort())
    } finally {
      await r.close()
    }
  }, 60_000)

  it('a row committed in flight whose record was never journaled waits again: nothing was sent', async () => {
    const t = tempLedgerFile()
    let r = await runRig({ sb, file: t.file })
    const before = posts()
    const { run } = await r.runs.importFile(runCsv(2), 'x')
    const runId = run!.runId
    await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
    // What a crash between the row's commit and create's journal leaves: wave started, row in flight, no record.
    r.ledger.runs.startWave(runId, 1, [0, 1], 'ana')
    r.ledger.runs.changeRow(
      runId,
      0,
      ['queued'],
      { state: 'in_flight', localId: 'never-journaled' },
      'ana',
      'run.row_in_flight',
    )
    await r.close()

    r = await runRig({ sb, file: t.file })
    try {
      let d = await r.runs.detail(runId)
      expect(d.run.state).toBe('paused')
      expect(d.rows.map((x) => [x.state, x.localId])).toEqual([
        ['queued', null],
        ['queued', null],
      ])
      expect(posts()).toBe(before)
      await r.runs.resume(runId)
      await r.runs.idle(runId)
      d = await r.runs.detail(runId)
      expect(d.rows.map((x) => x.outcome)).toEqual(['created', 'created'])
      expect(posts()).toBe(before + 2)
    } finally {
      await r.close()
      fs.rmSync(t.dir, { recursive: true, force: true })
    }
  }, 60_000)
})
