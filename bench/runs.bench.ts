/**
 * Payment runs (issue #15). `npx tsx bench/runs.bench.ts` or `npx tsx bench/run.ts runs`.
 *
 * 1. Import + validation of 1,000 rows, every row with its own confidential refund address (the slow Liquid check,
 *    ~0.3 ms each, none cached), as CSV and as XLSX (worker start-up included). Median of 5.
 * 2. A 200-row run created at the POST /withdraw allowance (10/min, the API contract default) against the real sandbox over
 *    loopback, timed on the sandbox's clock: the run's waits advance the sandbox clock instead of sleeping, and the
 *    client's limiter reads the same clock, so 20 minutes of creation take seconds of real time. The buckets of the
 *    sandbox and the client are first drained by a 10-row run, so the 200 rows are paced by refill alone (from a
 *    full bucket the first 10 would go at once: 19 minutes). Counts 429s (rows refused with kind rate_limited).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import ExcelJS from 'exceljs'
import { createDepixClient } from '../src/main/api'
import { openLedger } from '../src/main/ledger/sqlite'
import { generateLiquidAddress } from '../src/main/liquid'
import { createRunService, importRunFile, NO_PAYEES } from '../src/main/runs'
import { startSandbox } from '../src/main/sandbox'
import { createWithdrawalService } from '../src/main/withdrawals'

const CPF = '52998224725'

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

async function importBench(): Promise<Record<string, unknown>> {
  const refunds = Array.from({ length: 1000 }, () => generateLiquidAddress('liquid').address)
  const header =
    'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);NF;Categoria;Centro de custo;Endereço de devolução'
  const lines = refunds.map(
    (r, i) => `Fornecedor ${i};f${i}@example.com;${CPF};${100 + i},25;NF ${i};Serviços;Obras;${r}`,
  )
  const csv = new TextEncoder().encode(`\uFEFF${[header, ...lines].join('\r\n')}`)
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Pagamentos')
  ws.addRow(header.split(';'))
  refunds.forEach((r, i) =>
    ws.addRow([
      `Fornecedor ${i}`,
      `f${i}@example.com`,
      CPF,
      100 + i + 0.25,
      `NF ${i}`,
      'Serviços',
      'Obras',
      r,
    ]),
  )
  const xlsx = new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer)
  const ctx = {
    payees: NO_PAYEES,
    network: 'liquid' as const,
    profile: 'sandbox',
    defaultRefundAddress: null,
    findRecentSimilar: () => [],
    now: Date.now,
  }
  const out: Record<string, unknown> = {}
  for (const [name, bytes] of [
    ['csv', csv],
    ['xlsx', xlsx],
  ] as const) {
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      const r = await importRunFile(bytes, ctx)
      times.push(performance.now() - t0)
      if (r.rows.length !== 1000)
        throw new Error(`${name}: ${r.rows.length} rows, ${JSON.stringify(r.issues[0])}`)
    }
    out[name] = { bytes: bytes.length, medianMs: Math.round(median(times)), runsMs: times.map(Math.round) }
  }
  return out
}

async function allowanceBench(): Promise<Record<string, unknown>> {
  const sb = await startSandbox()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runs-bench-'))
  const ledger = openLedger(path.join(dir, 'ledger.sqlite'))
  const clock = (): number => sb.control.now()
  const client = createDepixClient({
    baseUrl: sb.baseUrl,
    auth: {
      kind: 'client_credentials',
      clientId: sb.credentials.clientId,
      clientSecret: sb.credentials.clientSecret,
    },
    now: clock,
    monotonic: clock,
  })
  await client.signIn()
  const withdrawals = createWithdrawalService({
    ledger,
    client,
    operator: 'bench',
    network: 'liquid',
    profile: 'sandbox',
    now: clock,
  })
  const refund = generateLiquidAddress('liquid', { confidential: false }).address
  const creates: number[] = []
  withdrawals.onChange((r) => {
    if (r.localState === 'submitting') creates.push(clock())
  })
  const runs = createRunService({
    ledger,
    operator: 'bench',
    payees: NO_PAYEES,
    now: clock,
    // The run's waits move the sandbox's clock (and with it the client's limiter) instead of real time.
    sleep: async (ms) => {
      sb.control.advanceClock(ms / 1000)
      await new Promise((r) => setImmediate(r))
    },
    runtime: () => ({
      profile: { id: 'sandbox', network: 'liquid', partnerRateBps: 100, defaultRefundAddress: refund },
      client,
      withdrawals,
    }),
  })
  const runOf = async (n: number, prefix: string): Promise<string> => {
    const lines = ['Chave Pix;CPF/CNPJ;Valor do Pix (R$)']
    for (let i = 0; i < n; i++) lines.push(`${prefix}${i}@example.com;${CPF};${10 + (i % 50)},00`)
    const { run } = await runs.importFile(new TextEncoder().encode(lines.join('\n')), prefix)
    if (!run) throw new Error('no run')
    await runs.approve(run.runId, (await runs.detail(run.runId)).summary.payoutCents)
    await runs.startWave(run.runId, n)
    await runs.idle(run.runId)
    return run.runId
  }
  try {
    await runOf(10, 'warm')
    creates.length = 0
    const realStart = performance.now()
    const runId = await runOf(200, 'r')
    const realMs = performance.now() - realStart
    const d = await runs.detail(runId)
    const rows = d.rows.map((r) => ledger.get(r.localId as string))
    const rateLimited = rows.filter((r) => r?.error?.kind === 'rate_limited').length
    const spanMs = (creates.at(-1) as number) - (creates[0] as number)
    const limitMs = 200 * 6_000
    return {
      rows: d.rows.length,
      created: d.progress.created,
      posts: sb.control.requestCounts()['POST /api/withdraw'],
      rejected429: rateLimited,
      held: d.progress.counts.held,
      creationSpanSandboxMin: +(spanMs / 60_000).toFixed(3),
      vsLimitPct: +(((spanMs - limitMs) / limitMs) * 100).toFixed(2),
      realSeconds: +(realMs / 1000).toFixed(1),
    }
  } finally {
    await runs.close()
    await withdrawals.tracker.stop()
    await client.close()
    ledger.close()
    await sb.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(): Promise<Record<string, unknown>> {
  return { import1000: await importBench(), run200AtAllowance: await allowanceBench() }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)))
}
