/**
 * The app context verifies the ledger at start-up in the background and says so to the renderer; a ledger edited
 * with plain SQL gives a 'broken' status and an export refused with audit_chain_broken; backups are listed and
 * restored through IPC (after a backup of the current file, and only with the operator's confirmation).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'

const open: Array<{ ctx: AppContext; dir: string }> = []
afterEach(async () => {
  for (const { ctx, dir } of open.splice(0)) {
    await ctx.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

function seed(dir: string): string {
  const l = openLedger(join(dir, 'ledger.sqlite'))
  const rec = l.insertSubmitting(
    {
      profile: 'sandbox',
      pixKey: 'maria@example.com',
      amountKind: 'payout',
      amountCents: 1000,
      request: { pixKey: 'maria@example.com', payoutAmountInCents: 1000 },
    },
    'ana',
  )
  l.close()
  return rec.localId
}

async function start(dir: string): Promise<{ ctx: AppContext; events: Array<{ state: string }> }> {
  const events: Array<{ state: string }> = []
  const ctx = await createAppContext({
    dataDir: dir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(join(dir, 'exports')),
      openExternal: () => Promise.resolve(),
    },
  })
  ctx.onEvent((event, payload) => {
    if (event === 'ledger:integrity') events.push(payload as { state: string })
  })
  open.push({ ctx, dir })
  return { ctx, events }
}

async function settled(ctx: AppContext): Promise<{ state: string; reason?: string }> {
  for (let i = 0; i < 200; i++) {
    const r = await ctx.router.handle('ledger:integrity', undefined)
    const s = (r as { ok: true; data: { state: string; reason?: string } }).data
    if (s.state !== 'checking') return s
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the integrity check never finished')
}

describe('ledger integrity in the app', () => {
  it('an intact ledger checks ok at start-up, and a daily backup is taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'integrity-'))
    seed(dir)
    const { ctx } = await start(dir)
    expect(await settled(ctx)).toMatchObject({ state: 'ok' })
    await ctx.integrity.stop()
    const backups = (await ctx.router.handle('ledger:backups', undefined)) as { ok: true; data: unknown[] }
    expect(backups.data).toEqual([expect.objectContaining({ reason: 'daily' })])
  })

  it('a row edited with plain SQL: broken at start-up, the renderer is told, export refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'integrity-'))
    const id = seed(dir)
    const db = new DatabaseSync(join(dir, 'ledger.sqlite'))
    db.exec(
      `UPDATE withdrawals SET pix_key = 'mallory@example.com', amount_cents = 99999 WHERE local_id = '${id}'`,
    )
    db.close()
    const { ctx } = await start(dir)
    const s = await settled(ctx)
    expect(s).toMatchObject({ state: 'broken', reason: expect.stringMatching(/differs from the state/) })
    const chosen = await ctx.router.handle('dialog:chooseFolder', { purpose: 'export' })
    const token = (chosen as { ok: true; data: { token: string } }).data.token
    const exported = await ctx.router.handle('records:export', { folder: token, formats: ['json'] })
    expect(exported).toMatchObject({
      ok: false,
      error: {
        code: 'audit_chain_broken',
        userMessage: { 'pt-BR': expect.any(String), en: expect.any(String) },
      },
    })
  })

  it('restore through IPC: needs confirm: true and a listed name; keeps a backup of what it replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'integrity-'))
    seed(dir)
    const { ctx } = await start(dir)
    await settled(ctx)
    await ctx.integrity.stop()
    const name = ctx.ledger.backup('manual').name
    expect(await ctx.router.handle('ledger:restore', { name })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(
      await ctx.router.handle('ledger:restore', { name: '../ledger.sqlite', confirm: true }),
    ).toMatchObject({
      ok: false,
    })
    const r = await ctx.router.handle('ledger:restore', { name, confirm: true })
    expect(r).toMatchObject({ ok: true, data: { restored: name } })
    const list = (await ctx.router.handle('ledger:backups', undefined)) as {
      ok: true
      data: Array<{ reason: string }>
    }
    expect(list.data.map((b) => b.reason)).toContain('restore')
    expect(await settled(ctx)).toMatchObject({ state: 'ok' })
  })
})
