/**
 * Crash safety of the create flow with a real process kill. A child process creates a withdrawal through the real
 * service against the sandbox (running here, in the test process) and is SIGKILLed:
 *   (a) after the journal write, before the POST;
 *   (b) while the POST is in flight (the sandbox holds it with a `slow` fault);
 *   (c) after the answer is stored.
 * Then the ledger is reopened by a new service, as after a restart: one record per intent, in the state that is
 * true, and no POST is ever sent again — not at recovery, not by the tracker running afterwards.
 *
 * The child is `node --import tsx`, not the `tsx` binary: the binary runs the script in a grandchild process that
 * a SIGKILL to its parent would orphan, still holding the POST.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { kill, line, SLOW_POST_MS, startChild } from './child'
import { rig, tempLedgerFile, waitFor, type Rig } from './helpers'

let sb: Sandbox
let dir: string
let file: string
const posts = () => sb.control.requestCounts()['POST /api/withdraw'] ?? 0

beforeAll(async () => {
  sb = await startSandbox()
  ;({ dir, file } = tempLedgerFile())
})
afterAll(async () => {
  await sb.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('SIGKILL during create, then restart', () => {
  const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' }

  it('(a) killed after the journal write, before the POST: nothing sent', async () => {
    const c = startChild(sb, file, 'before-post', 1_000)
    ids.a = (await line(c, /^journaled (\S+)$/))[1] as string
    // The child sits between commit and POST; give a POST every chance to show up if it were coming.
    await new Promise((r) => setTimeout(r, 300))
    expect(posts()).toBe(0)
    await kill(c)
    expect(posts()).toBe(0)
  }, 30_000)

  it('(b) killed while the POST is in flight: the sandbox received exactly one', async () => {
    sb.control.injectFault({ kind: 'slow', delayMs: SLOW_POST_MS, endpoint: 'withdraw' })
    const c = startChild(sb, file, 'in-flight', 1_100)
    ids.b = (await line(c, /^journaled (\S+)$/))[1] as string
    await waitFor('the POST to reach the sandbox', () => posts() === 1)
    expect(c.lines.some((l) => l.startsWith('stored'))).toBe(false)
    await kill(c)
    expect(posts()).toBe(1)
  }, 30_000)

  it('(c) killed after the answer was stored', async () => {
    const c = startChild(sb, file, 'after-store', 1_200)
    const m = await line(c, /^stored (\S+) (\S+)$/)
    ids.c = m[1] as string
    expect(m[2]).toBe('created')
    await kill(c)
    expect(posts()).toBe(2)
  }, 30_000)

  it('after restart: one record per intent, in the true state, and nothing is ever resent', async () => {
    // Let the held POST of (b) run its course on the sandbox side before reading anything.
    await new Promise((r) => setTimeout(r, SLOW_POST_MS))
    let r: Rig | undefined
    try {
      r = await rig({
        sb,
        file,
        service: {
          tracker: { cadence: { ageTiers: [{ maxAgeMs: 3_600_000, intervalMs: 100 }], resyncMs: 200 } },
        },
      })
      const rows = r.ledger.query({ limit: 100 }).rows
      expect(rows).toHaveLength(3)
      const byId = new Map(rows.map((x) => [x.localId, x]))
      const a = byId.get(ids.a) as WithdrawalRecord
      const b = byId.get(ids.b) as WithdrawalRecord
      const c = byId.get(ids.c) as WithdrawalRecord
      expect(a).toMatchObject({ localState: 'outcome_unknown', amountCents: 1_000, remoteId: null })
      expect(b).toMatchObject({ localState: 'outcome_unknown', amountCents: 1_100, remoteId: null })
      expect(c).toMatchObject({ localState: 'created', amountCents: 1_200 })
      expect(c.remoteId).toBe(sb.control.state().withdrawals.find((w) => w.payoutAmountInCents === 1_200)?.id)

      // Every recovery is audited, by the system, with why.
      for (const id of [ids.a, ids.b]) {
        const recovery = r.ledger
          .audit({ subject: id })
          .rows.find((e) => e.action === 'withdrawal.outcome_unknown')
        expect(recovery).toMatchObject({ operator: 'system', details: { reason: 'interrupted' } })
      }
      expect(r.ledger.verifyAuditChain()).toMatchObject({ ok: true })

      // At most one POST per intent reached the sandbox; (a)'s never did.
      const remote = sb.control.state().withdrawals
      expect(remote.filter((w) => w.payoutAmountInCents === 1_000)).toHaveLength(0)
      expect(remote.filter((w) => w.payoutAmountInCents === 1_100).length).toBeLessThanOrEqual(1)
      expect(remote.filter((w) => w.payoutAmountInCents === 1_200)).toHaveLength(1)

      // The tracker runs a while: it polls the created one, never POSTs.
      r.service.tracker.start()
      const gets = r.statusGets()
      await new Promise((x) => setTimeout(x, 1_000))
      expect(r.statusGets()).toBeGreaterThan(gets)
      expect(posts()).toBe(2)

      // The operator resolves the unknowns from what support (here: the sandbox) knows.
      const heldPost = remote.find((w) => w.payoutAmountInCents === 1_100)
      const bDone = await r.service.resolveUnknown(
        ids.b,
        heldPost ? { withdrawalId: heldPost.id } : { notCreated: true },
      )
      expect(bDone.localState).toBe(heldPost ? 'created' : 'not_created')
      expect((await r.service.resolveUnknown(ids.a, { notCreated: true })).localState).toBe('not_created')
      expect(posts()).toBe(2)
    } finally {
      await r?.close()
    }
  }, 30_000)
})
