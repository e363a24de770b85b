/**
 * Issue #27: the treasury wallet's statement in the signed export. Through a real app context (the embedded
 * sandbox's Liquid chain, LWK scanning the Sandbox treasury, the real SQLite ledger): a payment funded by the
 * treasury and a top-up delivered to it are exported with the records; the verifier accepts the export and
 * refuses it when one statement line is changed (JSON or CSV); and its own arithmetic check catches a statement
 * that does not add up.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { SANDBOX_DEPIX } from '../../../src/main/sandbox/chain'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { verifyExport } from '../../../src/main/records/verify'
import {
  checkWalletStatement,
  WALLET_STATEMENT_CSV,
  WALLET_STATEMENT_FILE,
  WALLET_STATEMENT_HTML,
  walletStatementFileSchema,
} from '../../../src/main/records/wallet-statement'
import type { WalletViewDto } from '../../../src/shared/channels-wallet'
import type { IpcResult } from '../../../src/shared/contract'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { payFromSandboxTreasury } from '../../support/sandbox-treasury'

let dataDir: string
let ctx: AppContext
const folders: string[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-statement-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    walletScanSpacingMs: 0,
    ports: {
      chooseDirectory: () => Promise.resolve(folders.shift() ?? null),
      chooseFile: () => Promise.resolve(null),
      openExternal: () => Promise.resolve(),
    },
  })
  await ctx.router.handle('session:signIn', undefined)
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function rpc<T>(channel: string, input: unknown): Promise<T> {
  const r = (await ctx.router.handle(channel, input)) as IpcResult<T>
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
  return r.data
}

async function exportNow(formats: string[]): Promise<string> {
  const parent = mkdtempSync(join(dataDir, 'out-'))
  folders.push(parent)
  const { token } = await rpc<{ token: string }>('dialog:chooseFolder', { purpose: 'export' })
  const r = await rpc<{ manifestPath: string }>('records:export', { folder: token, formats })
  return dirname(r.manifestPath)
}

describe('the statement in the signed export', () => {
  let folder: string
  let paidTx: string
  let payment: WithdrawalRecord

  beforeAll(async () => {
    const draft = {
      pixKey: 'extrato@example.com',
      taxNumber: '52998224725',
      amount: { kind: 'payout', cents: 45_678 },
      refundAddress: generateLiquidAddress('liquid', { confidential: false }).address,
    }
    const q = await rpc<{ intent: { id: string } }>('withdrawals:quote', { draft })
    payment = await rpc<WithdrawalRecord>('withdrawals:create', { draft, intentId: q.intent.id })
    paidTx = await payFromSandboxTreasury(
      ctx.sandbox!,
      payment.depositAddress as string,
      BigInt(payment.depositAmountCents as number) * 1_000_000n,
    )
    ctx.sandbox!.control.advanceClock(61) // a block: only confirmed movements are in a period
    await rpc('wallet:scan', {})
    await vi.waitFor(
      async () =>
        expect(
          (await rpc<{ record: WithdrawalRecord }>('withdrawals:get', { localId: payment.localId })).record
            .fundingTxId,
        ).toBe(paidTx),
      { timeout: 10_000 },
    )
    const funding = (await rpc<WalletViewDto>('wallet:get', {})) as Extract<WalletViewDto, { state: 'ready' }>
    const first = funding.movements.find((m) => m.meaning === 'other')!
    await rpc('wallet:label', { txid: first.txid, label: 'Aporte <b>inicial</b>' })
    folder = await exportNow(['csv', 'json', 'html'])
  })

  it('opening, the movements with their matches, closing; the reconciliation; listed in the manifest', async () => {
    const file = walletStatementFileSchema.parse(
      JSON.parse(readFileSync(join(folder, WALLET_STATEMENT_FILE), 'utf8')),
    )
    expect(file.asset).toBe(SANDBOX_DEPIX)
    expect(file.openingUnits).toBe('0')
    expect(file.lines).toHaveLength(2)
    expect(file.lines[0]).toMatchObject({
      meaning: 'other',
      depixUnits: '5000000000000',
      label: 'Aporte <b>inicial</b>',
    })
    const out = BigInt(payment.depositAmountCents as number) * 1_000_000n
    expect(file.lines[1]).toMatchObject({
      txid: paidTx,
      meaning: 'payment',
      localId: payment.localId,
      depixUnits: (-out).toString(),
    })
    expect(file.closingUnits).toBe((5_000_000_000_000n - out).toString())
    expect(file.reconciliation.payments).toEqual([
      { localId: payment.localId, txid: paidTx, depixUnits: (-out).toString() },
    ])
    const csv = readFileSync(join(folder, WALLET_STATEMENT_CSV), 'utf8')
    expect(csv).toContain('Saldo inicial')
    expect(csv).toContain(paidTx)
    expect(csv).toContain('Pagamento (depósito enviado)')
    const html = readFileSync(join(folder, WALLET_STATEMENT_HTML), 'utf8')
    expect(html).toContain('Extrato da carteira da tesouraria')
    expect(html).toContain(paidTx)
    expect(html).toContain('Conciliação')
    // The unmatched funding's label, typed by a person, is text on the page, never markup.
    expect(html).toContain('Aporte &lt;b&gt;inicial&lt;/b&gt;')
    expect(html).not.toContain('<b>inicial')
    expect(html).not.toContain('<script')
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as {
      files: Array<{ name: string; format: string }>
    }
    expect(manifest.files.map((f) => f.format)).toEqual(
      expect.arrayContaining(['wallet-statement', 'wallet-statement-csv', 'wallet-statement-html']),
    )
    const v = await verifyExport(join(folder, 'manifest.json'))
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
  })

  it('a changed statement line fails verification (JSON, CSV, HTML)', async () => {
    const jsonPath = join(folder, WALLET_STATEMENT_FILE)
    const original = readFileSync(jsonPath, 'utf8')
    writeFileSync(jsonPath, original.replace('"meaning":"payment"', '"meaning":"other"'))
    let v = await verifyExport(join(folder, 'manifest.json'))
    expect(v.ok).toBe(false)
    expect(v.problems.some((p) => p.file === WALLET_STATEMENT_FILE && p.check === 'hash')).toBe(true)
    writeFileSync(jsonPath, original)

    const csvPath = join(folder, WALLET_STATEMENT_CSV)
    const csv = readFileSync(csvPath, 'utf8')
    writeFileSync(
      csvPath,
      csv.replace(
        paidTx,
        paidTx.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      ),
    )
    v = await verifyExport(join(folder, 'manifest.json'))
    expect(v.ok).toBe(false)
    expect(v.problems.some((p) => p.file === WALLET_STATEMENT_CSV && p.check === 'hash')).toBe(true)
    writeFileSync(csvPath, csv)

    const htmlPath = join(folder, WALLET_STATEMENT_HTML)
    const html = readFileSync(htmlPath, 'utf8')
    writeFileSync(htmlPath, html.replace('Saldo final', 'Saldo finaI'))
    v = await verifyExport(join(folder, 'manifest.json'))
    expect(v.problems.some((p) => p.file === WALLET_STATEMENT_HTML && p.check === 'hash')).toBe(true)
    writeFileSync(htmlPath, html)
    expect((await verifyExport(join(folder, 'manifest.json'))).ok).toBe(true)
  })

  it('a JSON-only export has the statement JSON and no CSV or HTML', async () => {
    const only = await exportNow(['json'])
    const manifest = JSON.parse(readFileSync(join(only, 'manifest.json'), 'utf8')) as {
      files: Array<{ format: string }>
    }
    expect(manifest.files.map((f) => f.format)).toContain('wallet-statement')
    expect(manifest.files.map((f) => f.format)).not.toContain('wallet-statement-csv')
    expect(manifest.files.map((f) => f.format)).not.toContain('wallet-statement-html')
    expect((await verifyExport(join(only, 'manifest.json'))).ok).toBe(true)
  })

  it("the verifier's own arithmetic: closing, cents, period, reconciliation", () => {
    const good = readFileSync(join(folder, WALLET_STATEMENT_FILE))
    expect(checkWalletStatement(good)).toEqual([])
    const f = JSON.parse(good.toString('utf8')) as Record<string, unknown> & {
      lines: Array<Record<string, unknown>>
      reconciliation: { payments: unknown[] }
    }
    const bad = (mutate: (x: typeof f) => void): string[] => {
      const copy = structuredClone(f)
      mutate(copy)
      return checkWalletStatement(Buffer.from(JSON.stringify(copy)))
    }
    expect(bad((x) => (x['closingUnits'] = '1'))[0]).toMatch(/closingUnits 1 is not opening \+ lines/)
    expect(bad((x) => (x.lines[1]!['depixCents'] = 0)).join()).toMatch(/line 2: depixCents/)
    expect(bad((x) => (x.lines[1]!['at'] = '2999-01-01T00:00:00.000Z')).join()).toMatch(/outside the period/)
    expect(bad((x) => (x.reconciliation.payments = [])).join()).toMatch(/reconciliation.payments differs/)
    expect(bad((x) => (x['schema'] = 'x'))[0]).toMatch(/not a wallet statement/)
    expect(checkWalletStatement(Buffer.from('{'))).toEqual(['not valid JSON'])
  })
})
