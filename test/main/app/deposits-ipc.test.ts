/**
 * Issue #17 through the real router of a real app context (embedded sandbox on loopback, SQLite ledger): the
 * deposit channels refuse hostile input before anything is sent, the record never crosses with fields the contract
 * does not name, the deposit errors cross with their own codes (not `internal`), and the Sandbox tools refuse
 * other profiles' records and deposits that were never created.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { DepositQuote } from '../../../src/shared/channels-deposits'
import type { IpcResult } from '../../../src/shared/contract'
import { depositRecordSchema, type DepositRecord } from '../../../src/shared/deposit-record'

const ADDRESS = generateLiquidAddress('liquid').address
const CPF = '52998224725'
let dataDir: string
let ctx: AppContext

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'deposits-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: () => Promise.resolve(null),
      chooseFile: () => Promise.resolve(null),
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
const errorOf = async (channel: string, input?: unknown) => {
  const r = await call(channel, input)
  if (r.ok) throw new Error(`${channel} should have failed`)
  return r.error
}
/** POST /deposit as the sandbox counted them: the app's own count could be wrong in the same way as its code. */
const posts = (): number => ctx.sandbox!.control.requestCounts()['POST /api/deposit'] ?? 0

describe('deposit channels', () => {
  it('hostile drafts are refused by field before anything is sent', async () => {
    const before = posts()
    const cases: Array<[unknown, string]> = [
      [{ amountCents: 10.5, depixAddress: ADDRESS }, 'draft.amountCents'],
      [{ amountCents: -1, depixAddress: ADDRESS }, 'draft.amountCents'],
      [{ amountCents: Number.MAX_SAFE_INTEGER + 2, depixAddress: ADDRESS }, 'draft.amountCents'],
      [{ amountCents: '500', depixAddress: ADDRESS }, 'draft.amountCents'],
      [{ amountCents: 50_000, depixAddress: 'x'.repeat(5000) }, 'draft.depixAddress'],
      [{ amountCents: 50_000, depixAddress: `${ADDRESS}\u202e` }, 'draft.depixAddress'],
      [{ amountCents: 50_000, depixAddress: 'ark1qexample' }, 'draft.depixAddress'],
      [{ amountCents: 50_000, depixAddress: 'spark1qexample' }, 'draft.depixAddress'],
      [
        { amountCents: 50_000, depixAddress: ADDRESS, endUserTaxNumber: '11111111111' },
        'draft.endUserTaxNumber',
      ],
      [{ amountCents: 50_000, depixAddress: ADDRESS, delayHours: 721 }, 'draft.delayHours'],
      [{ amountCents: 50_000, depixAddress: ADDRESS, __proto__: { x: 1 }, extra: true }, 'draft'],
    ]
    for (const [draft, field] of cases) {
      const e = await errorOf('deposits:quote', { draft })
      expect(e.code, JSON.stringify(draft).slice(0, 80)).toBe('invalid_input')
      expect(Object.keys(e.fields ?? {}).some((k) => k.startsWith(field))).toBe(true)
    }
    // A body nobody reviewed is refused too: no intent, no POST.
    const e = await errorOf('deposits:create', {
      draft: { amountCents: 50_000, depixAddress: ADDRESS, endUserTaxNumber: CPF },
      intentId: 'made-up',
    })
    expect(e.code).toBe('intent_invalid')
    expect(posts()).toBe(before)
  })

  it('a testnet address on the mainnet Sandbox profile is refused by the Liquid helper at create', async () => {
    const draft = {
      amountCents: 50_000,
      depixAddress: generateLiquidAddress('testnet').address,
      endUserTaxNumber: CPF,
    }
    const q = await call<DepositQuote>('deposits:quote', { draft })
    expect(q.ok && q.data.address.ok).toBe(false)
    const e = await errorOf('deposits:create', { draft, intentId: q.ok ? q.data.intent.id : '' })
    expect(e.code).toBe('address_invalid')
  })

  it('creates once per intent; the record crosses with only its contract fields; the intent is spent', async () => {
    const before = posts()
    const draft = { amountCents: 43_210, depixAddress: ADDRESS, endUserTaxNumber: CPF }
    const q = await call<DepositQuote>('deposits:quote', { draft })
    if (!q.ok) throw new Error(JSON.stringify(q.error))
    const [a, b] = await Promise.all([
      call<DepositRecord>('deposits:create', { draft, intentId: q.data.intent.id }),
      call<DepositRecord>('deposits:create', { draft, intentId: q.data.intent.id }),
    ])
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1)
    expect(posts()).toBe(before + 1)
    const created = (a.ok ? a.data : (b as { data: DepositRecord }).data) as DepositRecord
    expect(created.localId.startsWith('dep-')).toBe(true)
    expect(Object.keys(created).filter((k) => !(k in depositRecordSchema.shape))).toEqual([])
    expect(created.remoteId).toBeTruthy()
    const detail = await call<{ record: DepositRecord; qr: { crcValid: boolean } | null }>('deposits:get', {
      localId: created.localId,
    })
    expect(detail.ok && detail.data.qr?.crcValid).toBe(true)
    // A second, similar one needs the operator's confirmation of the first.
    const q2 = await call<DepositQuote>('deposits:quote', { draft })
    expect(q2.ok && q2.data.duplicates.map((d) => d.localId)).toEqual([created.localId])
    const dup = await errorOf('deposits:create', { draft, intentId: q2.ok ? q2.data.intent.id : '' })
    expect(dup.code).toBe('duplicate')
    expect(posts()).toBe(before + 1)
  })

  it('unknown ids and hostile ids are refused with their codes, never internal', async () => {
    expect((await errorOf('deposits:get', { localId: 'dep-nope' })).code).toBe('not_found')
    expect((await errorOf('deposits:get', { localId: 'x'.repeat(101) })).code).toBe('invalid_input')
    expect((await errorOf('deposits:import', { qrId: '   ' })).code).toBe('invalid_input')
    expect((await errorOf('deposits:import', { qrId: 'qr-does-not-exist' })).code).toBe('remote_not_found')
    expect((await errorOf('deposits:reconcile', { days: 91 })).code).toBe('invalid_input')
    expect((await errorOf('sandbox:payDeposit', { localId: 'dep-nope' })).code).toBe('not_found')
    expect((await errorOf('sandbox:outsideDeposit', { amountCents: 0, pay: true })).code).toBe(
      'invalid_input',
    )
    expect((await errorOf('deposits:reviewList', {})).code).toBe('no_review')
  })
})
