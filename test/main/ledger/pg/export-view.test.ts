/**
 * Exports of the team ledger (ledger/pg/export-view.ts through records/export.ts), on a real throwaway
 * cluster with two analyst roles: one consistent view while another desk writes (an export is never torn), a row
 * edited as the owner refuses the export, a connection cut mid-export leaves nothing behind, a kind the team
 * schema does not hold is refused, and the same records exported from a desk's SQLite file and from the team
 * ledger give the same records.json.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../../src/main/ledger/sqlite'
import {
  importDeskLedger,
  pgExportLedger,
  type ExportLedger,
  type PgLedgerStore,
} from '../../../../src/main/ledger/engines'
import { exportFrom, type ExportOptions } from '../../../../src/main/records/export'
import { verifyExport } from '../../../../src/main/records'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { makeRecords, seededLedger, tempDir } from '../../records/fixtures'
import { exportTo, SIGNER, track } from '../../records/helpers'
import { startTeam, type Team } from '../team'
import { whileReading } from '../../../support/export-ledger'

announceSkip('team ledger exports (postgres)')

const options = (over: Partial<ExportOptions> = {}): ExportOptions => ({
  dir: tempDir('team-export-'),
  formats: ['csv', 'json', 'html'],
  signer: SIGNER,
  appVersion: '0.1.0-test',
  profile: { name: 'Equipe', network: 'liquid' },
  ...over,
})

async function pay(store: PgLedgerStore, who: string, n: number, created = true): Promise<string> {
  const pixKey = `${who}-${n}-${randomUUID().slice(0, 8)}@example.com`
  const request = { pixKey, taxNumber: '52998224725', payoutAmountInCents: 1_000 + n }
  const input: NewWithdrawal = {
    profile: `desk-${who}`,
    request,
    pixKey,
    amountKind: 'payout',
    amountCents: 1_000 + n,
  }
  const r = await store.insertSubmitting(input, who)
  if (created) await markCreated(store, r.localId)
  return r.localId
}

const markCreated = (store: PgLedgerStore, localId: string) =>
  store.markCreated(localId, {
    remoteId: randomUUID(),
    createResponse: null,
    requestId: null,
    nonce: null,
    status: 'unsent',
  })

/** The team ledger for an export, with `during` run (and awaited) right after the export read its first record. */
const interleaved = (store: PgLedgerStore, during: () => Promise<void>): ExportLedger =>
  whileReading(pgExportLedger(store), (n) => (n === 1 ? during() : undefined))

interface Line {
  seq: number
  subject: string | null
  action: string
  operator: string
}
const jsonl = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line)

describe.skipIf(PG_SKIP_REASON !== null)('exports of the team ledger', () => {
  let team: Team
  let alice: PgLedgerStore
  let bob: PgLedgerStore
  const exportsBy = async (who: string): Promise<number> => {
    const owner = await team.owner()
    const r = await owner.query(
      `SELECT count(*) AS n FROM audit_log WHERE action = 'records.exported' AND operator = $1`,
      [who],
    )
    return Number((r.rows[0] as { n: string }).n)
  }

  beforeAll(async () => {
    team = await startTeam()
    alice = await team.desk('alice')
    bob = await team.desk('bob')
  }, 60_000)
  afterAll(async () => team?.stop())

  it('is one moment of the ledger while another desk writes: not torn, intact, the later writes absent', async () => {
    // The oldest record is read last (newest first); bob finishes it and adds another while the export runs.
    const late = await pay(bob, 'bob', 0, false)
    const before: string[] = [late]
    for (let i = 1; i <= 12; i++) before.push(await pay(i % 2 ? alice : bob, i % 2 ? 'alice' : 'bob', i))
    let added = ''
    const o = options()
    const res = await exportFrom(
      interleaved(alice, async () => {
        await markCreated(bob, late)
        added = await pay(bob, 'bob', 99)
      }),
      o,
    )
    expect(added).not.toBe('')
    expect((await bob.get(late))?.localState).toBe('created')

    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    const m = v.manifest!
    expect(m.rowCount).toBe(before.length)
    const records = (
      JSON.parse(readFileSync(join(res.folder, 'records.json'), 'utf8')) as {
        records: Array<{ localId: string; localState: string }>
      }
    ).records
    expect(records.map((r) => r.localId).sort()).toEqual([...before].sort())
    expect(records.find((r) => r.localId === late)?.localState).toBe('submitting')
    const audit = jsonl(join(res.folder, 'audit.jsonl'))
    expect(Math.max(...audit.map((e) => e.seq))).toBeLessThanOrEqual(m.auditHead!.seq)
    expect(audit.filter((e) => e.subject === late).map((e) => e.action)).toEqual(['withdrawal.submitting'])
    // Both desks' records, their entries attributed by the database to the role that wrote them.
    expect(new Set(audit.map((e) => e.operator))).toEqual(new Set(['alice', 'bob']))
    expect((await alice.auditHead()).seq).toBeGreaterThan(m.auditHead!.seq)
    // Its own entry, chained after bob's writes, names the head it exported.
    const own = (await alice.audit({ limit: 1 })).rows[0]!
    expect(own).toMatchObject({ action: 'records.exported', operator: 'alice', subject: null })
    expect(own.details).toMatchObject({ auditHead: m.auditHead, rowCount: before.length })
    expect((await alice.verifyAuditChain()).ok).toBe(true)
  })

  it('stays intact with another desk writing freely all along', async () => {
    for (let i = 0; i < 30; i++) await pay(alice, 'alice', 200 + i)
    let stop = false
    const writes = (async () => {
      let n = 0
      while (!stop) await pay(bob, 'bob', 300 + n++)
      return n
    })()
    const results = await Promise.all(
      [0, 1, 2].map(async () => {
        const res = await exportFrom(pgExportLedger(alice), options({ formats: ['json'] }))
        return verifyExport(res.manifestPath)
      }),
    ).finally(() => {
      stop = true
    })
    expect(await writes).toBeGreaterThan(0)
    for (const v of results) expect(v.problems).toEqual([])
  })

  it('refuses when a row was edited as the owner, with the ledger’s message, and writes nothing', async () => {
    const id = await pay(bob, 'bob', 400)
    const owner = await team.owner()
    await owner.query(`UPDATE withdrawals SET pix_key = 'outra@example.com' WHERE local_id = $1`, [id])
    const o = options()
    const n = await exportsBy('alice')
    try {
      const e = await exportFrom(pgExportLedger(alice), o).catch((x: unknown) => x)
      expect(e).toMatchObject({ code: 'audit_chain_broken' })
      const msg = (e as { userMessage: { 'pt-BR': string; en: string } }).userMessage
      // The record is named in the technical reason; the sentences stay in their own language.
      expect((e as { reason?: string }).reason).toContain(id)
      expect(msg['pt-BR']).not.toMatch(/record|differs/)
      expect(msg.en).toMatch(/the export was refused/)
      expect(readdirSync(o.dir)).toEqual([])
      expect(await exportsBy('alice')).toBe(n)
    } finally {
      const r = await bob.get(id)
      await owner.query(`UPDATE withdrawals SET pix_key = $2 WHERE local_id = $1`, [id, r!.request.pixKey])
    }
    expect((await alice.verifyAuditChain()).ok).toBe(true)
  })

  it('a connection cut mid-export: the export fails, its folder is removed, nothing is recorded', async () => {
    const o = options()
    const n = await exportsBy('alice')
    const e = await exportFrom(
      interleaved(alice, async () => {
        // The view's connection is the only one of alice's sitting inside a transaction (as the superuser: the
        // owner does not see other roles' sessions).
        const r = await team.cluster.admin(
          `SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity
            WHERE usename = 'alice' AND state LIKE 'idle in transaction%'`,
        )
        expect(r.rows).toHaveLength(1)
      }),
      o,
    ).catch((x: unknown) => x)
    expect(e).toMatchObject({ name: 'TeamLedgerError', code: 'unavailable' })
    expect(readdirSync(o.dir)).toEqual([])
    expect(await exportsBy('alice')).toBe(n)
    // The desk goes on: the broken connection was not handed back to the pool.
    const again = await exportFrom(pgExportLedger(alice), options({ formats: ['json'] }))
    expect((await verifyExport(again.manifestPath)).ok).toBe(true)
  })

  it('top-ups of two desks export from the team ledger and verify intact, with their audit entries', async () => {
    const made: string[] = []
    for (const [store, who] of [
      [alice, 'alice'],
      [bob, 'bob'],
    ] as const) {
      const rec = await store.deposits.insertSubmitting(
        {
          profile: `desk-${who}`,
          request: {
            depixAddress: `lq1qq${randomUUID()}`,
            amountInCents: 7_500,
            endUserTaxNumber: '52998224725',
          },
        },
        who,
      )
      const remoteId = `dep-${randomUUID()}`
      await store.deposits.markCreated(rec.localId, {
        remoteId,
        createResponse: { id: remoteId, qrCopyPaste: '00020126PIX', valueInCents: 7_500 },
        requestId: null,
        status: 'pending',
      })
      made.push(rec.localId)
    }
    const o = options({ kind: 'deposit', formats: ['json', 'csv'] })
    const res = await exportFrom(pgExportLedger(alice), o)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    const m = JSON.parse(readFileSync(res.manifestPath, 'utf8')) as { recordKind?: string; rowCount: number }
    expect(m.recordKind).toBe('deposit')
    const json = readFileSync(join(res.folder, 'records.json'), 'utf8')
    for (const id of made) expect(json).toContain(id)
    const audit = readFileSync(join(res.folder, 'audit.jsonl'), 'utf8')
    expect(audit).toMatch(/"operator":"bob"/)
    expect(audit).toMatch(/deposit\.created/)
  })

  it('the same records from a desk’s SQLite file and from the team ledger: the same records.json', async () => {
    const { ledger } = seededLedger(makeRecords(40, { seed: 16, profile: 'desk-import' }))
    track(ledger)
    const imported = await importDeskLedger(alice.pool, ledger, 'alice')
    expect(imported.imported).toBe(40)
    const filter = { profile: 'desk-import' }
    const fromDesk = await exportTo(ledger, { filter, formats: ['json', 'csv'] })
    const fromTeam = await exportFrom(pgExportLedger(alice), options({ filter, formats: ['json', 'csv'] }))
    for (const r of [fromDesk, fromTeam]) expect((await verifyExport(r.manifestPath)).problems).toEqual([])
    const read = (folder: string, name: string): string => readFileSync(join(folder, name), 'utf8')
    const desk = JSON.parse(read(fromDesk.folder, 'records.json')) as Record<string, unknown>
    const teamJson = JSON.parse(read(fromTeam.folder, 'records.json')) as Record<string, unknown>
    expect(Object.keys(teamJson)).toEqual(Object.keys(desk))
    expect(teamJson).toEqual(desk)
    // Byte for byte, even: the state layout (record-line.ts) does not depend on the engine.
    expect(read(fromTeam.folder, 'records.json')).toBe(read(fromDesk.folder, 'records.json'))
    expect(read(fromTeam.folder, 'records.csv').split('\n')[0]).toBe(
      read(fromDesk.folder, 'records.csv').split('\n')[0],
    )
  })
})
