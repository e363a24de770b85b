/**
 * Every local transition, for both record kinds, on both engines (a real SQLite file and a real PostgreSQL
 * cluster), with the same outcome: the same record fields, the same audit entries (action and details) and the
 * same refusal codes. The rules are model/transitions.ts and model/kinds.ts; this holds the two executors to them.
 * Each scenario runs on each engine and yields a trace with the engine-given values (ids, times, hashes) taken out;
 * the traces must be equal, and each is also checked against what the rules say.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { openLedger } from '../../../src/main/ledger/sqlite'
import {
  sqliteDepositStore,
  sqliteStore,
  type DepositStore,
  type LedgerStore,
} from '../../../src/main/ledger/engines'
import { LedgerError } from '../../../src/main/ledger/model/errors'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

interface Stores {
  withdrawals: LedgerStore
  deposits: DepositStore
}

/** One kind's operations over either engine's stores, in the terms the scenarios use. */
interface KindOps {
  kind: 'withdrawal' | 'deposit'
  insert(s: Stores, profile: string): Promise<{ localId: string }>
  created(s: Stores, localId: string, remoteId: string, status: string | null): Promise<unknown>
  journaled(s: Stores, localId: string, remoteId: string): Promise<{ applied: boolean }>
  rejected(s: Stores, localId: string): Promise<unknown>
  unknown(s: Stores, localId: string): Promise<unknown>
  resolve(s: Stores, localId: string, linkedId: string | null): Promise<unknown>
  flags(s: Stores, localId: string, flags: string[]): Promise<unknown>
  get(s: Stores, localId: string): Promise<WithdrawalRecord | DepositRecord | undefined>
}

const error = {
  kind: 'business',
  status: 400,
  messageCode: 'invalid',
  denialCode: null,
  requestId: 'req-e',
}
const answer = (remoteId: string, status: string | null) => ({
  remoteId,
  createResponse: { id: remoteId, status, qrCopyPaste: '00020126PIX', valueInCents: 5_000 },
  requestId: `req-${remoteId}`,
  depositAddress: 'lq1qqexampleaddress',
  depositAmountCents: 12_845,
  expiration: '2030-01-01T00:00:00.000Z',
  status,
})

const WITHDRAWAL: KindOps = {
  kind: 'withdrawal',
  insert: (s, profile) => {
    const pixKey = `${profile}@example.com`
    return s.withdrawals.insertSubmitting(
      {
        profile,
        request: { pixKey, payoutAmountInCents: 12_345 },
        pixKey,
        amountKind: 'payout',
        amountCents: 12_345,
      },
      'Ana',
    )
  },
  created: (s, id, remoteId, status) => s.withdrawals.markCreated(id, answer(remoteId, status)),
  journaled: (s, id, remoteId) => s.withdrawals.applyJournaledCreate(id, answer(remoteId, 'pending')),
  rejected: (s, id) => s.withdrawals.markRejected(id, error),
  unknown: (s, id) => s.withdrawals.markOutcomeUnknown(id, null, 'timeout'),
  resolve: (s, id, linkedId) =>
    s.withdrawals.resolveUnknown(
      id,
      linkedId === null ? { notCreated: true, note: 'support' } : { withdrawalId: linkedId, note: 'support' },
      'Bia',
    ),
  flags: (s, id, flags) => s.withdrawals.setFlags(id, flags, 'Bia'),
  get: (s, id) => s.withdrawals.get(id),
}

const DEPOSIT: KindOps = {
  kind: 'deposit',
  insert: (s, profile) =>
    s.deposits.insertSubmitting(
      { profile, request: { amountInCents: 5_000, depixAddress: 'lq1qqtreasury' } },
      'Ana',
    ),
  created: (s, id, remoteId, status) => s.deposits.markCreated(id, answer(remoteId, status)),
  journaled: (s, id, remoteId) => s.deposits.applyJournaledCreate(id, answer(remoteId, 'pending')),
  rejected: (s, id) => s.deposits.markRejected(id, error),
  unknown: (s, id) => s.deposits.markOutcomeUnknown(id, null, 'timeout'),
  resolve: (s, id, linkedId) =>
    s.deposits.resolveUnknown(
      id,
      linkedId === null ? { notCreated: true, note: 'support' } : { depositId: linkedId, note: 'support' },
      'Bia',
    ),
  flags: (s, id, flags) => s.deposits.setFlags(id, flags, 'Bia'),
  get: (s, id) => s.deposits.get(id),
}

/** What a step did: the record's rule-decided fields, or the refusal's code. Engine-given values are left out. */
type Step = { state: Record<string, unknown> } | { refused: string }

async function step(f: () => Promise<unknown>): Promise<Step> {
  try {
    const r = (await f()) as WithdrawalRecord | DepositRecord | { record: WithdrawalRecord; applied: boolean }
    const rec = 'record' in r ? r.record : r
    const fields: Record<string, unknown> = {
      localState: rec.localState,
      remoteStatus: rec.remoteStatus,
      error: rec.error,
      requestId: rec.requestId,
      flags: rec.flags,
      expiration: rec.expiration,
      hasRemoteId: rec.remoteId !== null,
      createResponse: rec.createResponse,
    }
    if ('qrCopyPaste' in rec)
      Object.assign(fields, { qrCopyPaste: rec.qrCopyPaste, valueCents: rec.valueCents })
    else
      Object.assign(fields, {
        depositAddress: rec.depositAddress,
        depositAmountCents: rec.depositAmountCents,
        fundedAt: rec.fundedAt === null ? null : 'set',
        fundingTxId: rec.fundingTxId,
      })
    if ('record' in r) fields.applied = r.applied
    return { state: fields }
  } catch (e) {
    if (e instanceof LedgerError) return { refused: e.code }
    throw e
  }
}

/** A record's audit entries as the rules write them: action and details, the remote ids made comparable. */
async function auditOf(s: Stores, localId: string, remoteIds: readonly string[]): Promise<unknown[]> {
  const rows = (await s.withdrawals.audit({ subject: localId, limit: 100 })).rows.reverse()
  const name = (v: unknown): unknown => {
    const i = remoteIds.indexOf(v as string)
    return i >= 0 ? `remote#${i}` : v
  }
  return rows.map((r) => {
    const d = { ...(r.details as Record<string, unknown>) }
    for (const k of ['remoteId', 'requestId']) if (k in d) d[k] = name(d[k])
    if (typeof d.requestId === 'string' && d.requestId.startsWith('req-')) d.requestId = 'req'
    // The team ledger's audit operator is the database role; the app's operator travels in the details.
    delete d.appOperator
    return { action: r.action, details: d }
  })
}

type Trace = Array<{ step: string; outcome: Step } | { audit: unknown[] }>

/** Every transition of one kind on one engine; each scenario on its own records. */
async function run(ops: KindOps, s: Stores): Promise<Trace> {
  // Profile and remote ids unique to this run; its tag is taken out of the trace at the end, so the two engines'
  // traces compare.
  const tag = randomUUID()
  const profile = `p-${tag}`
  const trace: Trace = []
  let n = 0
  const rid = (): string => `r-${tag}-${(n += 1)}`
  const log = async (name: string, f: () => Promise<unknown>): Promise<void> => {
    trace.push({ step: name, outcome: await step(f) })
  }

  // submitting → created (with a status), then every move a created record refuses.
  const a = await ops.insert(s, profile)
  const ra = rid()
  await log('created', () => ops.created(s, a.localId, ra, 'pending'))
  await log('created again', () => ops.created(s, a.localId, rid(), 'pending'))
  await log('rejected after created', () => ops.rejected(s, a.localId))
  await log('resolved while created', () => ops.resolve(s, a.localId, null))
  await log('flags', () => ops.flags(s, a.localId, ['b', 'a', 'b']))
  await log('same flags', () => ops.flags(s, a.localId, ['a', 'b']))
  await log('flags cleared', () => ops.flags(s, a.localId, []))
  trace.push({ audit: await auditOf(s, a.localId, [ra]) })

  // submitting → rejected; then created is refused.
  const b = await ops.insert(s, profile)
  await log('rejected', () => ops.rejected(s, b.localId))
  await log('created after rejected', () => ops.created(s, b.localId, rid(), null))
  trace.push({ audit: await auditOf(s, b.localId, []) })

  // submitting → outcome_unknown → created by the id support gave; a taken id is refused first.
  const c = await ops.insert(s, profile)
  await log('unknown', () => ops.unknown(s, c.localId))
  await log('unknown again', () => ops.unknown(s, c.localId))
  await log('linked to a taken id', () => ops.resolve(s, c.localId, ra))
  const rc = rid()
  await log('linked', () => ops.resolve(s, c.localId, rc))
  trace.push({ audit: await auditOf(s, c.localId, [ra, rc]) })

  // outcome_unknown → not_created; nothing moves it after that.
  const d = await ops.insert(s, profile)
  await log('unknown (d)', () => ops.unknown(s, d.localId))
  await log('not created', () => ops.resolve(s, d.localId, null))
  await log('journaled after not created', () => ops.journaled(s, d.localId, rid()))
  trace.push({ audit: await auditOf(s, d.localId, []) })

  // The side journal's replay: applied once from outcome_unknown, the same id again changes nothing.
  const e = await ops.insert(s, profile)
  await log('unknown (e)', () => ops.unknown(s, e.localId))
  const re = rid()
  await log('journaled', () => ops.journaled(s, e.localId, re))
  await log('journaled again', () => ops.journaled(s, e.localId, re))
  await log('journaled, another id', () => ops.journaled(s, e.localId, rid()))
  trace.push({ audit: await auditOf(s, e.localId, [re]) })

  // A create whose answer names an id another record has.
  const f = await ops.insert(s, profile)
  await log('created with a taken id', () => ops.created(s, f.localId, ra, null))
  await log('still submitting', async () => ops.get(s, f.localId))
  return JSON.parse(JSON.stringify(trace).replaceAll(tag, 'T')) as Trace
}

/** The withdrawal-only move: funding, repeatable, first date kept. */
async function runFunding(s: Stores): Promise<Trace> {
  const trace: Trace = []
  const log = async (name: string, f: () => Promise<unknown>): Promise<void> => {
    trace.push({ step: name, outcome: await step(f) })
  }
  const tag = randomUUID()
  const w = await WITHDRAWAL.insert(s, `p-${tag}`)
  await log('funded while submitting', () => s.withdrawals.markFunded(w.localId, { txId: 'tx-1' }, 'Bia'))
  const rw = `r-${tag}`
  await WITHDRAWAL.created(s, w.localId, rw, null)
  await log('funded', () => s.withdrawals.markFunded(w.localId, { txId: 'tx-1' }, 'Bia'))
  await log('funded, same tx', () => s.withdrawals.markFunded(w.localId, { txId: 'tx-1' }, 'Bia'))
  await log('funded, no tx', () => s.withdrawals.markFunded(w.localId, {}, 'Bia'))
  await log('funded, another tx', () => s.withdrawals.markFunded(w.localId, { txId: ' tx-2 ' }, 'Bia'))
  trace.push({ audit: await auditOf(s, w.localId, [rw]) })
  return JSON.parse(JSON.stringify(trace).replaceAll(tag, 'T')) as Trace
}

interface Engine {
  name: 'sqlite' | 'postgres'
  open(): Promise<{ stores: Stores; done: () => Promise<void> }>
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    open: () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transitions-'))
      const ledger = openLedger(path.join(dir, 'ledger.sqlite'))
      const withdrawals = sqliteStore(ledger)
      return Promise.resolve({
        stores: { withdrawals, deposits: sqliteDepositStore(ledger) },
        done: async () => {
          await withdrawals.close()
          fs.rmSync(dir, { recursive: true, force: true })
        },
      })
    },
  },
]
announceSkip('transitions on both engines (postgres)')
if (!PG_SKIP_REASON) {
  let team: Team | null = null
  engines.push({
    name: 'postgres',
    open: async () => {
      team = await startTeam()
      const store = await team.desk('ana')
      return { stores: { withdrawals: store, deposits: store.deposits }, done: async () => team?.stop() }
    },
  })
}

const traces = new Map<string, Trace>()

describe('every transition, both kinds, both engines', () => {
  const opened: Array<{ name: string; stores: Stores; done: () => Promise<void> }> = []
  beforeAll(async () => {
    for (const e of engines) opened.push({ name: e.name, ...(await e.open()) })
    for (const o of opened) {
      traces.set(`${o.name}/withdrawal`, await run(WITHDRAWAL, o.stores))
      traces.set(`${o.name}/deposit`, await run(DEPOSIT, o.stores))
      traces.set(`${o.name}/funding`, await runFunding(o.stores))
    }
  }, 180_000)
  afterAll(async () => {
    for (const o of opened) await o.done()
  })

  it.each(['withdrawal', 'deposit', 'funding'])('%s: the same outcome on SQLite and PostgreSQL', (k) => {
    expect(engines.map((e) => e.name)).toEqual(PG_SKIP_REASON ? ['sqlite'] : ['sqlite', 'postgres'])
    if (!PG_SKIP_REASON) expect(traces.get(`postgres/${k}`)).toEqual(traces.get(`sqlite/${k}`))
  })

  it.each(['withdrawal', 'deposit'] as const)('%s: the outcomes are the rules of model/', (k) => {
    const trace = traces.get(`sqlite/${k}`) ?? []
    const outcome = (name: string): Step | undefined =>
      trace.find((t): t is { step: string; outcome: Step } => 'step' in t && t.step === name)?.outcome
    const refused = (name: string): string | undefined => {
      const o = outcome(name)
      return o && 'refused' in o ? o.refused : undefined
    }
    const state = (name: string): Record<string, unknown> | undefined => {
      const o = outcome(name)
      return o && 'state' in o ? o.state : undefined
    }
    expect(state('created')).toMatchObject({
      localState: 'created',
      remoteStatus: 'pending',
      hasRemoteId: true,
    })
    if (k === 'deposit')
      expect(state('created')).toMatchObject({ qrCopyPaste: '00020126PIX', valueCents: 5_000 })
    else
      expect(state('created')).toMatchObject({
        depositAddress: 'lq1qqexampleaddress',
        depositAmountCents: 12_845,
      })
    for (const s of [
      'created again',
      'rejected after created',
      'resolved while created',
      'created after rejected',
    ])
      expect(refused(s), s).toBe('illegal_transition')
    expect(refused('unknown again')).toBe('illegal_transition')
    expect(refused('journaled after not created')).toBe('illegal_transition')
    expect(refused('journaled, another id')).toBe('illegal_transition')
    expect(refused('linked to a taken id')).toBe('duplicate_remote_id')
    expect(refused('created with a taken id')).toBe('duplicate_remote_id')
    expect(state('still submitting')).toMatchObject({ localState: 'submitting', hasRemoteId: false })
    expect(state('flags')).toMatchObject({ flags: ['b', 'a'] })
    expect(state('rejected')).toMatchObject({ localState: 'rejected', error, requestId: 'req-e' })
    expect(state('linked')).toMatchObject({ localState: 'created', hasRemoteId: true })
    expect(state('not created')).toMatchObject({ localState: 'not_created', hasRemoteId: false })
    expect(state('journaled')).toMatchObject({ localState: 'created', applied: true })
    expect(state('journaled again')).toMatchObject({ localState: 'created', applied: false })
    const audits = trace.filter((t): t is { audit: unknown[] } => 'audit' in t).map((t) => t.audit)
    expect(audits[0]).toEqual([
      expect.objectContaining({ action: `${k}.submitting` }),
      { action: `${k}.created`, details: { remoteId: 'remote#0', requestId: 'req', status: 'pending' } },
      { action: `${k}.flags`, details: { added: ['b', 'a'], removed: [] } },
      { action: `${k}.flags`, details: { added: [], removed: ['b', 'a'] } },
    ])
    expect(audits[2]).toEqual([
      expect.objectContaining({ action: `${k}.submitting` }),
      { action: `${k}.outcome_unknown`, details: { reason: 'timeout', error: null } },
      { action: `${k}.resolved`, details: { resolution: 'linked', remoteId: 'remote#1', note: 'support' } },
    ])
    expect(audits[4]).toEqual([
      expect.objectContaining({ action: `${k}.submitting` }),
      expect.objectContaining({ action: `${k}.outcome_unknown` }),
      {
        action: `${k}.created`,
        details: {
          remoteId: 'remote#0',
          requestId: 'req',
          status: 'pending',
          replayed: 'side_journal',
          from: 'outcome_unknown',
        },
      },
    ])
  })

  it('funding: refused before created, first date kept, every new tx audited', () => {
    const trace = traces.get('sqlite/funding') ?? []
    expect(trace.slice(0, 5).map((t) => ('step' in t ? t.outcome : null))).toEqual([
      { refused: 'illegal_transition' },
      { state: expect.objectContaining({ fundedAt: 'set', fundingTxId: 'tx-1' }) },
      { state: expect.objectContaining({ fundedAt: 'set', fundingTxId: 'tx-1' }) },
      { state: expect.objectContaining({ fundedAt: 'set', fundingTxId: 'tx-1' }) },
      { state: expect.objectContaining({ fundedAt: 'set', fundingTxId: 'tx-2' }) },
    ])
    const audit = trace.at(-1) as { audit: Array<{ action: string; details: unknown }> }
    expect(audit.audit.filter((a) => a.action === 'withdrawal.funded').map((a) => a.details)).toEqual([
      { txId: 'tx-1', repeat: false },
      { txId: 'tx-2', repeat: true },
    ])
  })
})
