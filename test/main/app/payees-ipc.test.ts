/**
 * Issue #14 part A through the real router of a real app context (embedded sandbox on loopback, SQLite ledger):
 * the payee book, payments made to a payee with references, the name check on the sandbox's payout, search, the
 * signed export and its verification, the default refund address, the duplicate guard on a repeated payment,
 * and the CSV in and out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { verifyExport } from '../../../src/main/records'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult, WithdrawalQuote } from '../../../src/shared/contract'
import type { Payee } from '../../../src/shared/payee'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
let dataDir: string
let ctx: AppContext
const folders: Array<string | null> = []
const files: Array<string | null> = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'payees-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(folders.shift() ?? null),
      chooseFile: () => Promise.resolve(files.shift() ?? null),
      openExternal: () => Promise.resolve(),
    },
  })
  for (let i = 0; i < 100 && ctx.runtime().client.session() === null; i++) {
    await new Promise((r) => setTimeout(r, 50))
  }
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}
async function ok<T>(channel: string, input?: unknown): Promise<T> {
  const r = await call<T>(channel, input)
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
  return r.data
}
const errorOf = async (channel: string, input?: unknown) => {
  const r = await call(channel, input)
  if (r.ok) throw new Error(`${channel} should have failed`)
  return r.error
}

const maria = {
  name: 'Maria da Silva Sandbox',
  taxNumber: '529.982.247-25',
  pixKeys: [{ key: 'maria@example.com' }],
}
const fornecedora = {
  name: 'Fornecedora Exemplo Ltda',
  taxNumber: '11.222.333/0001-81',
  pixKeys: [{ key: 'financeiro@fornecedora.example' }],
}

function draftFor(p: Payee, cents: number, over: Partial<WithdrawalDraft> = {}): WithdrawalDraft {
  return {
    pixKey: p.pixKeys[0]!.key,
    taxNumber: p.taxNumber,
    amount: { kind: 'payout', cents },
    refundAddress: REFUND,
    payeeId: p.id,
    ...over,
  }
}

async function pay(draft: WithdrawalDraft, confirm = false): Promise<WithdrawalRecord> {
  const q = await ok<WithdrawalQuote>('withdrawals:quote', { draft })
  return ok<WithdrawalRecord>('withdrawals:create', {
    draft,
    intentId: q.intent.id,
    ...(confirm ? { confirmedDuplicates: q.duplicates.map((d) => d.localId) } : {}),
  })
}

async function settle(localId: string): Promise<WithdrawalRecord> {
  await ok('sandbox:fund', { localId, mode: 'exact' })
  return ok<WithdrawalRecord>('sandbox:settle', { localId, outcome: 'sent' })
}

describe('payee book over IPC', () => {
  it('refuses an invalid CPF/CNPJ precisely (field and code), keeps nothing', async () => {
    const e = await errorOf('payees:create', { ...maria, taxNumber: '529.982.247-26' })
    expect(e.code).toBe('invalid_input')
    expect(e.fields).toEqual({ taxNumber: 'tax_number_check_digits' })
    expect((await ok<{ total: number }>('payees:list', {})).total).toBe(0)
  })

  it('creates, searches, updates and removes; a second entry for a document is refused on its field', async () => {
    const p = await ok<Payee>('payees:create', { ...maria, name: 'Temporária' })
    expect(
      (await ok<{ rows: Payee[] }>('payees:list', { text: 'temporaria' })).rows.map((x) => x.id),
    ).toEqual([p.id])
    const again = await errorOf('payees:create', maria)
    expect(again.code).toBe('payee_tax_number_taken')
    expect(again.fields).toEqual({ taxNumber: 'payee_tax_number_taken' })
    const renamed = await ok<Payee>('payees:update', { id: p.id, payee: { ...maria, name: 'Outra' } })
    expect(renamed.name).toBe('Outra')
    expect(await ok('payees:remove', { id: p.id })).toBeNull()
    expect((await errorOf('payees:get', { id: p.id })).code).toBe('payee_not_found')
    expect((await errorOf('payees:remove', { id: p.id })).code).toBe('payee_not_found')
  })
})

describe('payments to a payee, with references', () => {
  let mariaP: Payee
  let fornecedoraP: Payee
  let matched: WithdrawalRecord
  let mismatched: WithdrawalRecord

  beforeAll(async () => {
    mariaP = await ok<Payee>('payees:create', maria)
    fornecedoraP = await ok<Payee>('payees:create', fornecedora)
  })

  it('the review names the payee; a key or document not the payee’s is refused on its field', async () => {
    const q = await ok<WithdrawalQuote>('withdrawals:quote', { draft: draftFor(mariaP, 1_000) })
    expect(q.payee).toEqual({ id: mariaP.id, name: 'Maria da Silva Sandbox', taxNumber: '52998224725' })
    const wrongKey = await errorOf('withdrawals:quote', {
      draft: draftFor(mariaP, 1_000, { pixKey: 'x@example.com' }),
    })
    expect(wrongKey.fields).toEqual({ pixKey: 'payee_key_not_in_book' })
    const wrongDoc = await errorOf('withdrawals:quote', {
      draft: draftFor(mariaP, 1_000, { taxNumber: '11222333000181' }),
    })
    expect(wrongDoc.fields).toEqual({ taxNumber: 'payee_document_differs' })
    const gone = await errorOf('withdrawals:quote', { draft: draftFor(mariaP, 1_000, { payeeId: 'nope' }) })
    expect(gone.fields).toEqual({ payeeId: 'payee_not_found' })
  })

  it('the create intent covers the references reviewed: changed ones need a new review', async () => {
    const reviewed = draftFor(mariaP, 1_111, { references: { invoice: 'NF 1' } })
    const q = await ok<WithdrawalQuote>('withdrawals:quote', { draft: reviewed })
    const e = await errorOf('withdrawals:create', {
      draft: { ...reviewed, references: { invoice: 'NF 2' } },
      intentId: q.intent.id,
    })
    expect(e.code).toBe('intent_mismatch')
  })

  it('stores the references and the expected payee; the name check flags the wrong receiver only', async () => {
    matched = await pay(
      draftFor(mariaP, 2_500, { references: { invoice: ' NF-e 4471 ', costCentre: 'ADM-01', note: '' } }),
    )
    expect(matched.references).toEqual({ invoice: 'NF-e 4471', costCentre: 'ADM-01' })
    expect(matched.expectedPayee).toEqual({ id: mariaP.id, name: mariaP.name, taxNumber: '52998224725' })
    mismatched = await pay(draftFor(fornecedoraP, 3_000, { references: { category: 'Aluguel' } }))

    // The sandbox pays "Maria da Silva Sandbox" for her CPF and "Beneficiário Sandbox" for a document it does not
    // know: the second is not the supplier the analyst chose.
    matched = await settle(matched.localId)
    mismatched = await settle(mismatched.localId)
    expect(matched.receiverName).toBe('Maria da Silva Sandbox')
    expect(matched.flags).not.toContain('payee_mismatch')
    expect(mismatched.receiverName).toBe('Beneficiário Sandbox')
    expect(mismatched.flags).toContain('payee_mismatch')
    const flagged = ctx.ledger
      .audit({ subject: mismatched.localId })
      .rows.find((e) => e.action === 'withdrawal.flagged')
    expect(flagged?.details.flags).toEqual(['payee_mismatch'])

    const attention = await ok<{ rows: WithdrawalRecord[] }>('withdrawals:list', { attention: true })
    expect(attention.rows.map((r) => r.localId)).toContain(mismatched.localId)
    expect(attention.rows.map((r) => r.localId)).not.toContain(matched.localId)
  })

  it('search finds a payment by any reference and by the payee’s name or document', async () => {
    const find = async (text: string) =>
      (await ok<{ rows: WithdrawalRecord[] }>('withdrawals:list', { text })).rows.map((r) => r.localId)
    expect(await find('nf-e 4471')).toEqual([matched.localId])
    expect(await find('adm-01')).toEqual([matched.localId])
    expect(await find('ALUGUEL')).toEqual([mismatched.localId])
    expect(await find('fornecedora exemplo')).toEqual([mismatched.localId])
    expect(await find('11.222.333')).toEqual([mismatched.localId])
  })

  it('every export format carries them, and the signed export verifies', async () => {
    const dir = join(dataDir, 'export')
    mkdirSync(dir)
    folders.push(dir)
    const token = (await ok<{ token: string }>('dialog:chooseFolder', { purpose: 'export' })).token
    const r = await ok<{ manifestPath: string; files: string[] }>('records:export', {
      folder: token,
      formats: ['csv', 'json', 'html'],
    })
    const v = await verifyExport(r.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    const folder = dirname(r.manifestPath)
    const csv = readFileSync(join(folder, 'records.csv'), 'utf8')
    expect(csv).toContain('"Nota fiscal (NF)"')
    expect(csv).toContain('"NF-e 4471"')
    expect(csv).toContain('"mismatch"')
    expect(csv).toContain('"11.222.333/0001-81"')
    const json = readFileSync(join(folder, 'records.json'), 'utf8')
    // records.json lines are in the state layout (canonical member order, export format 2).
    const exported = (JSON.parse(json) as { records: Array<{ localId: string; references?: unknown }> })
      .records
    expect(
      exported.find((x) => x.references !== undefined && 'invoice' in (x.references as object))?.references,
    ).toEqual({
      invoice: 'NF-e 4471',
      costCentre: 'ADM-01',
    })
    expect(json).toContain('"references":{"costCentre":"ADM-01","invoice":"NF-e 4471"}')
    const html = readFileSync(join(folder, 'report.html'), 'utf8')
    expect(html).toContain('NF-e 4471')
    expect(html).toContain('Aluguel')
  })

  it('repeating a payment: the same key and amount within 24 h needs the duplicate confirmation', async () => {
    const again = draftFor(mariaP, 2_500, { references: { invoice: 'NF-e 4472' } })
    const q = await ok<WithdrawalQuote>('withdrawals:quote', { draft: again })
    expect(q.duplicates.map((d) => d.localId)).toEqual([matched.localId])
    const refused = await errorOf('withdrawals:create', { draft: again, intentId: q.intent.id })
    expect(refused.code).toBe('duplicate')
    const created = await pay(again, true)
    expect(created.flags).toContain('duplicate_confirmed')
    expect(created.references).toEqual({ invoice: 'NF-e 4472' })
  })
})

describe('default refund address of the profile', () => {
  it('is checked by the Liquid helper for the profile’s network, stored, audited, and removable', async () => {
    const bad = await errorOf('profiles:setDefaultRefundAddress', { address: 'lq1notanaddress' })
    expect(bad.code).toBe('refund_address_invalid')
    const testnet = generateLiquidAddress('testnet').address
    expect((await errorOf('profiles:setDefaultRefundAddress', { address: testnet })).code).toBe(
      'refund_address_invalid',
    )
    const saved = await ok<{ id: string; defaultRefundAddress?: string }>(
      'profiles:setDefaultRefundAddress',
      {
        address: `  ${REFUND}  `,
      },
    )
    expect(saved.defaultRefundAddress).toBe(REFUND)
    const list = await ok<{ profiles: Array<{ id: string; defaultRefundAddress?: string }> }>('profiles:list')
    expect(list.profiles.find((p) => p.id === saved.id)?.defaultRefundAddress).toBe(REFUND)
    expect(ctx.runtime().profile.defaultRefundAddress).toBe(REFUND)
    const entry = ctx.ledger.audit({ subject: `profile:${saved.id}` }).rows[0]
    expect(entry?.action).toBe('profile.default_refund_address_changed')
    expect(entry?.details).toEqual({ profile: saved.id, from: null, to: REFUND })
    // The same address again is no change: no entry.
    const head = ctx.ledger.auditHead()
    await ok('profiles:setDefaultRefundAddress', { address: REFUND })
    expect(ctx.ledger.auditHead()).toEqual(head)
    const cleared = await ok<{ defaultRefundAddress?: string }>('profiles:setDefaultRefundAddress', {
      address: null,
    })
    expect(cleared.defaultRefundAddress).toBeUndefined()
    expect(ctx.ledger.verifyAuditChain().ok).toBe(true)
  })
})

describe('payees CSV over IPC', () => {
  it('exports the book into a folder from the dialog, imports a file from the file dialog', async () => {
    const dir = join(dataDir, 'book')
    mkdirSync(dir)
    folders.push(dir)
    const token = (await ok<{ token: string }>('dialog:chooseFolder', { purpose: 'export' })).token
    const out = await ok<{ fileName: string; count: number }>('payees:export', { folder: token })
    expect(out.fileName).toMatch(/^favorecidos-\d{8}T\d{6}Z\.csv$/)
    expect(out.count).toBe(2)
    const text = readFileSync(join(dir, out.fileName), 'utf8')
    expect(text).toContain('"Maria da Silva Sandbox";"52998224725";"email:maria@example.com"')

    expect(await ok('payees:import')).toBeNull()
    const file = join(dataDir, 'novos.csv')
    writeFileSync(file, 'nome;cpf/cnpj;chaves pix\r\nNova;39053344705;nova@example.com\r\nRuim;1;x\r\n')
    files.push(file)
    const r = await ok<{ imported: unknown[]; rejected: Array<{ line: number }> }>('payees:import')
    expect(r.imported).toHaveLength(1)
    expect(r.rejected.map((x) => x.line)).toEqual([3])

    const missing = join(dataDir, 'missing.csv')
    writeFileSync(missing, 'nome;cpf\r\nNova;39053344705\r\n')
    files.push(missing)
    const e = await errorOf('payees:import')
    expect(e.code).toBe('import_missing_columns')
    expect(e.fields).toEqual({ pixKeys: 'import_missing_column' })
  })
})
