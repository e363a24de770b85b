/**
 * Issue #14 part B through the real router, ledger file and embedded sandbox: a payout made in the sandbox has
 * its receipt fetched from the sandbox's own origin, stored beside the ledger under its hash, served as bytes,
 * saved through the save port; a desktop notification is shown once through a recording port, with a masked
 * Pix key, and clicking it asks the renderer to open the record.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { DesktopNotification } from '../../../src/main/notifications'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'

const PIX_KEY = '+5561988887777'
let dataDir: string
let ctx: AppContext
const shown: Array<DesktopNotification & { click: () => void }> = []
const opened: string[] = []
let savePath: string | null = null
const printed: Array<{ size: number; mediaType: string }> = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'receipts-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(null),
      openExternal: () => Promise.resolve(),
      chooseSavePath: () => Promise.resolve(savePath),
      printDocument: (bytes, mediaType) => {
        printed.push({ size: bytes.length, mediaType })
        return Promise.resolve(true)
      },
      notifier: { supported: () => true, show: (n, click) => shown.push({ ...n, click }) },
    },
  })
  await ok(ctx.router.handle('session:signIn', undefined))
  ctx.onEvent((event, payload) => {
    if (event === 'notification:open') opened.push((payload as { localId: string }).localId)
  })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: unknown }>): Promise<T> {
  const r = await p
  if (!r.ok) throw new Error(`IPC failed: ${JSON.stringify(r.error)}`)
  return r.data as T
}

async function paidWithdrawal(cents = 10_000): Promise<string> {
  const draft = {
    pixKey: PIX_KEY,
    taxNumber: '529.982.247-25',
    amount: { kind: 'deposit' as const, cents },
    refundAddress: generateLiquidAddress('liquid', { confidential: false }).address,
  }
  const q = await ok<{ intent: { id: string } }>(ctx.router.handle('withdrawals:quote', { draft }))
  const created = await ok<{ record: { localId: string } } | { localId: string }>(
    ctx.router.handle('withdrawals:create', { draft, intentId: q.intent.id }),
  )
  const localId = 'record' in created ? created.record.localId : created.localId
  await ok(ctx.router.handle('sandbox:fund', { localId, mode: 'exact' }))
  await ok(ctx.router.handle('sandbox:settle', { localId, outcome: 'sent' }))
  return localId
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read()
    if (done(v)) return v
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('condition never met')
}

type View = { state: string; sha256?: string; size?: number; mediaType?: string; reason?: string }

describe('receipts kept locally (issue #14)', () => {
  let localId = ''
  let sha = ''

  it('fetches the sandbox receipt once the payout is sent and stores it under its hash', async () => {
    localId = await paidWithdrawal()
    const view = await until(
      () => ok<View>(ctx.router.handle('receipts:get', { localId })),
      (v) => v.state === 'stored',
    )
    expect(view.mediaType).toBe('text/html')
    sha = view.sha256 ?? ''
    const file = join(dataDir, 'receipts', `${sha}.html`)
    expect(existsSync(file)).toBe(true)
    const bytes = readFileSync(file)
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha)
    expect(view.size).toBe(bytes.length)
    expect(bytes.toString('utf8')).toContain('Comprovante de Pix')

    const b = await ok<{ base64: string; mediaType: string }>(
      ctx.router.handle('receipts:bytes', { localId }),
    )
    expect(Buffer.from(b.base64, 'base64').equals(bytes)).toBe(true)
    // The storing is in the audit chain, which still verifies.
    expect(ctx.ledger.audit({ subject: localId }).rows.some((e) => e.action === 'receipt.stored')).toBe(true)
    expect(ctx.ledger.verifyAuditChain().ok).toBe(true)
  })

  it('a second sighting of the same receiptUrl does not fetch again', async () => {
    await ok(ctx.router.handle('withdrawals:refresh', { localId }))
    const entries = ctx.ledger.audit({ subject: localId }).rows.filter((e) => e.action === 'receipt.stored')
    expect(entries).toHaveLength(1)
  })

  it('saves through the save port, and a cancelled dialog saves nothing', async () => {
    savePath = join(dataDir, 'saved-receipt.html')
    expect(await ok(ctx.router.handle('receipts:save', { localId }))).toEqual({ saved: true })
    expect(createHash('sha256').update(readFileSync(savePath)).digest('hex')).toBe(sha)
    savePath = null
    expect(await ok(ctx.router.handle('receipts:save', { localId }))).toEqual({ saved: false })
    expect(await ok(ctx.router.handle('receipts:print', { localId }))).toEqual({ printed: true })
    expect(printed.at(-1)?.mediaType).toBe('text/html')
  })

  it('a receipt file changed on disk is reported as damaged and never served', async () => {
    const file = join(dataDir, 'receipts', `${sha}.html`)
    const original = readFileSync(file)
    writeFileSync(file, '<html><body>forged</body></html>')
    try {
      expect(await ok<View>(ctx.router.handle('receipts:get', { localId }))).toMatchObject({
        state: 'damaged',
        reason: 'hash_mismatch',
      })
      const r = await ctx.router.handle('receipts:bytes', { localId })
      expect(r.ok).toBe(false)
      expect(JSON.stringify(r)).not.toContain('forged')
    } finally {
      writeFileSync(file, original)
    }
  })

  it('a record without a receipt says none; hostile input is refused', async () => {
    expect(await ok<View>(ctx.router.handle('receipts:get', { localId: 'nope' }))).toEqual({ state: 'none' })
    expect((await ctx.router.handle('receipts:get', { localId: '' })).ok).toBe(false)
    expect(
      (await ctx.router.handle('receipts:bytes', { localId: 'x', path: '/etc/passwd' } as never)).ok,
    ).toBe(false)
  })
})

describe('desktop notifications (issue #14)', () => {
  it('the payout made was notified once, with the key masked; clicking opens the record', async () => {
    const paid = shown.filter((n) => n.title === 'Pagamento efetuado')
    expect(paid).toHaveLength(1)
    expect(paid[0]?.body).toContain('R$')
    expect(JSON.stringify(shown)).not.toContain(PIX_KEY)
    expect(JSON.stringify(shown)).not.toContain('52998224725')
    paid[0]?.click()
    expect(opened).toHaveLength(1)
  })

  it('the Settings switch turns them off', async () => {
    await ok(ctx.router.handle('settings:update', { notifications: false }))
    const before = shown.length
    await paidWithdrawal(12_345)
    expect(shown.length).toBe(before)
    await ok(ctx.router.handle('settings:update', { notifications: true }))
    expect((await ctx.router.handle('settings:update', { notifications: 'yes' } as never)).ok).toBe(false)
  })
})

describe('a record paid before receipts were kept', () => {
  it('is registered when its receipt is asked for, then fetched', async () => {
    const localId = await paidWithdrawal(13_579)
    await until(
      () => ok<View>(ctx.router.handle('receipts:get', { localId })),
      (v) => v.state === 'stored',
    )
    // The pre-upgrade state: the record has its receiptUrl, the receipts table has no row for it.
    const db = new DatabaseSync(join(dataDir, 'ledger.sqlite'))
    db.prepare('DELETE FROM receipts WHERE local_id = ?').run(localId)
    db.close()
    const first = await ok<View>(ctx.router.handle('receipts:get', { localId }))
    expect(first.state).not.toBe('none')
    await until(
      () => ok<View>(ctx.router.handle('receipts:get', { localId })),
      (v) => v.state === 'stored',
    )
    const stored = ctx.ledger.audit({ subject: localId }).rows.filter((e) => e.action === 'receipt.stored')
    expect(stored).toHaveLength(2)
  })
})
