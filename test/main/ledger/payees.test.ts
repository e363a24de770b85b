/**
 * The team's payee book on a real PostgreSQL server, two desks as two connections under two analyst roles
 * (ledger/pg/payees.ts, migration-payees-receipts.ts): an entry created on one desk is read on the other,
 * every change is audited under the role that made it with the state it produced, two desks editing one entry at
 * once never lose an edit silently, the document and key rules hold across desks, the database refuses what an
 * analyst may not do, a row changed outside the app is found, and the CSV import is idempotent.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payeeStateHash } from '../../../src/main/ledger/sqlite/payee-states'
import { TeamLedgerError, pgPool, type PgLedgerStore } from '../../../src/main/ledger/engines'
import type { PayeeStore } from '../../../src/main/ledger/payee-store'
import { pgPayeeStore, verifyPgPayees } from '../../../src/main/ledger/pg/payees'
import { importPayeesCsv, PayeeError, payeesCsv } from '../../../src/main/payees'
import type { Payee } from '../../../src/shared/payee'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

announceSkip('team payee book (postgres)')

const maria = {
  name: 'Maria da Silva Sandbox',
  taxNumber: '529.982.247-25',
  pixKeys: [{ key: 'maria@example.com' }, { key: '52998224725', type: 'cpf' }],
}
const fornecedora = {
  name: 'Fornecedora Exemplo Ltda',
  taxNumber: '11.222.333/0001-81',
  pixKeys: [{ key: '+5561988887777' }],
  notes: 'Vencimento dia 10',
}

async function refusal(p: Promise<unknown>): Promise<PayeeError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  )
  if (e instanceof PayeeError) return e
  throw new Error(`expected a PayeeError, got ${String(e)}`)
}

describe.skipIf(PG_SKIP_REASON !== null)('team payee book (PostgreSQL)', () => {
  let team: Team
  let anaDesk: PgLedgerStore
  let brunoDesk: PgLedgerStore
  let ana: PayeeStore
  let bruno: PayeeStore
  let dir: string

  beforeAll(async () => {
    team = await startTeam()
    anaDesk = await team.desk('ana')
    brunoDesk = await team.desk('bruno')
    ana = pgPayeeStore(anaDesk.pool)
    bruno = pgPayeeStore(brunoDesk.pool)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-payees-'))
  }, 120_000)
  afterAll(async () => {
    await team?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const audits = async (id: string) =>
    (await anaDesk.audit({ subject: `payee:${id}`, limit: 100 })).rows.slice().reverse()

  it('an entry created on one desk is found on the other, audited under the creating role', async () => {
    const m = await ana.create(maria, 'Ana (app)')
    expect(await bruno.byId(m.id)).toEqual(m)
    expect((await bruno.search('sílva')).rows.map((p) => p.id)).toEqual([m.id])
    expect((await bruno.search('529.982')).rows.map((p) => p.id)).toEqual([m.id])
    expect((await bruno.search('%')).total).toBe(0)
    expect((await bruno.byTaxNumber('52998224725'))?.id).toBe(m.id)
    const [entry] = await audits(m.id)
    // The database's role, not the name the desk sent (kept beside it).
    expect(entry).toMatchObject({ operator: 'ana', action: 'payee.created', stateHash: payeeStateHash(m) })
    expect(entry?.details).toMatchObject({ via: 'form', appOperator: 'Ana (app)', name: maria.name })
    const row = await team
      .owner()
      .then((o) => o.query('SELECT created_by, updated_by, version FROM payees WHERE id = $1', [m.id]))
    expect(row.rows[0]).toEqual({ created_by: 'ana', updated_by: 'ana', version: '1' })
    expect(await verifyPgPayees(anaDesk.pool)).toBeNull()
    expect((await anaDesk.verifyAuditChain()).ok).toBe(true)
  })

  it('two desks editing one entry at once: one wins, the other is told and nothing is lost', async () => {
    for (let round = 0; round < 5; round++) {
      const base = await ana.create(
        { ...fornecedora, taxNumber: cnpjFor(round), pixKeys: [{ key: `race${round}@example.com` }] },
        'ana',
      )
      const seen: Payee = (await bruno.byId(base.id))!
      const [ra, rb] = await Promise.allSettled([
        ana.update(
          base.id,
          { ...fornecedora, taxNumber: seen.taxNumber, pixKeys: seen.pixKeys, name: `Ana ${round}` },
          'ana',
          {
            expectedUpdatedAt: seen.updatedAt,
          },
        ),
        bruno.update(
          base.id,
          { ...fornecedora, taxNumber: seen.taxNumber, pixKeys: seen.pixKeys, name: `Bruno ${round}` },
          'bruno',
          {
            expectedUpdatedAt: seen.updatedAt,
          },
        ),
      ])
      const won = [ra, rb].filter((r) => r.status === 'fulfilled')
      const lost = [ra, rb].filter((r) => r.status === 'rejected')
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(1)
      const e = (lost[0] as PromiseRejectedResult).reason as PayeeError
      expect(e).toBeInstanceOf(PayeeError)
      expect(e.code).toBe('payee_changed')
      expect(e.userMessage?.['pt-BR']).toMatch(/Outro analista alterou este favorecido/)
      expect(e.userMessage?.en).toMatch(/Another analyst changed this payee/)
      const winner = (won[0] as PromiseFulfilledResult<Payee>).value
      expect(await ana.byId(base.id)).toEqual(winner)
      expect(winner.updatedAt > base.updatedAt).toBe(true)
      const trail = await audits(base.id)
      expect(trail.map((a) => a.action)).toEqual(['payee.created', 'payee.updated'])
      expect(trail[1]?.operator).toBe(winner.name.startsWith('Ana') ? 'ana' : 'bruno')
      expect(trail[1]?.stateHash).toBe(payeeStateHash(winner))
      // The loser re-reads and edits the current version: accepted, on top of the winner's.
      const again = await bruno.update(
        base.id,
        { ...fornecedora, taxNumber: seen.taxNumber, pixKeys: seen.pixKeys, notes: 'Depois' },
        'bruno',
        {
          expectedUpdatedAt: winner.updatedAt,
        },
      )
      expect(again.notes).toBe('Depois')
    }
    expect(await verifyPgPayees(anaDesk.pool)).toBeNull()
  })

  it('without an expectation the writes queue up: both are kept and audited, in order', async () => {
    const f = { ...fornecedora, taxNumber: cnpjFor(40), pixKeys: [{ key: 'queue@example.com' }] }
    const base = await ana.create(f, 'ana')
    await Promise.all([
      ana.update(base.id, { ...f, notes: 'A' }, 'ana'),
      bruno.update(base.id, { ...f, notes: 'B' }, 'bruno'),
    ])
    const trail = await audits(base.id)
    expect(trail.map((a) => a.action)).toEqual(['payee.created', 'payee.updated', 'payee.updated'])
    expect(new Set(trail.slice(1).map((a) => a.operator))).toEqual(new Set(['ana', 'bruno']))
    // Each update's "before" is the state the other left: neither overwrote a state it had not seen.
    const second = trail[2]?.details as { before: { notes?: string } }
    const first = trail[1]?.details as { after: { notes?: string } }
    expect(second.before.notes).toBe(first.after.notes)
  })

  it('one document and one key owner across desks, also when two desks create at the same moment', async () => {
    for (let round = 0; round < 4; round++) {
      const doc = cnpjFor(60 + round)
      const [ra, rb] = await Promise.allSettled([
        ana.create({ name: `A${round}`, taxNumber: doc, pixKeys: [{ key: `a${round}@example.com` }] }, 'ana'),
        bruno.create(
          { name: `B${round}`, taxNumber: doc, pixKeys: [{ key: `b${round}@example.com` }] },
          'bruno',
        ),
      ])
      expect([ra, rb].filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const e = ([ra, rb].find((r) => r.status === 'rejected') as PromiseRejectedResult).reason
      expect(e).toMatchObject({
        code: 'payee_tax_number_taken',
        fields: { taxNumber: 'payee_tax_number_taken' },
      })
      const key = `shared${round}@example.com`
      const [ka, kb] = await Promise.allSettled([
        ana.create({ name: 'K', taxNumber: cnpjFor(70 + round), pixKeys: [{ key }] }, 'ana'),
        bruno.create({ name: 'K', taxNumber: cnpjFor(80 + round), pixKeys: [{ key }] }, 'bruno'),
      ])
      expect([ka, kb].filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      expect(([ka, kb].find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
        code: 'payee_key_taken',
        fields: { 'pixKeys.0.key': 'payee_key_taken' },
      })
    }
  })

  it('a removal is kept as a removed row (analysts cannot delete); the document is free again', async () => {
    const p = await ana.create(
      { name: 'Saindo', taxNumber: cnpjFor(90), pixKeys: [{ key: 'sai@example.com' }] },
      'ana',
    )
    expect(await refusal(bruno.remove(p.id, 'bruno', { expectedUpdatedAt: 'stale' }))).toMatchObject({
      code: 'payee_changed',
    })
    await bruno.remove(p.id, 'bruno', { expectedUpdatedAt: p.updatedAt })
    expect(await ana.byId(p.id)).toBeUndefined()
    expect((await ana.search('Saindo')).total).toBe(0)
    expect(
      await refusal(
        ana.update(p.id, { name: 'X', taxNumber: cnpjFor(90), pixKeys: [{ key: 'x@example.com' }] }, 'ana'),
      ),
    ).toMatchObject({ code: 'payee_not_found' })
    const trail = await audits(p.id)
    expect(trail.at(-1)).toMatchObject({
      action: 'payee.removed',
      operator: 'bruno',
      stateHash: payeeStateHash(null),
    })
    const again = await ana.create(
      { name: 'Voltou', taxNumber: cnpjFor(90), pixKeys: [{ key: 'sai@example.com' }] },
      'ana',
    )
    expect(again.id).not.toBe(p.id)
    // The privileges: no DELETE, and identity columns are the database's.
    for (const sql of [
      `DELETE FROM payees WHERE id = '${again.id}'`,
      `UPDATE payees SET created_by = 'mallory' WHERE id = '${again.id}'`,
      `DELETE FROM payee_keys`,
    ]) {
      const e = await anaDesk.pool.query(sql).then(
        () => null,
        (x: unknown) => x as { code?: string },
      )
      expect(e?.code).toBe('42501')
    }
    expect(await verifyPgPayees(anaDesk.pool)).toBeNull()
  })

  it('an entry changed outside the app is found against its audit entry', async () => {
    const p = await ana.create(
      { name: 'Alvo', taxNumber: cnpjFor(91), pixKeys: [{ key: 'alvo@example.com' }] },
      'ana',
    )
    expect(await verifyPgPayees(anaDesk.pool)).toBeNull()
    const owner = await team.owner()
    await owner.query(
      `UPDATE payees SET pix_keys = '[{"key":"ladrao@example.com","type":"email"}]' WHERE id = $1`,
      [p.id],
    )
    expect(await verifyPgPayees(anaDesk.pool)).toEqual({
      id: p.id,
      reason: 'differs from its latest audit entry',
    })
    expect(await brunoDesk.verifyAuditChain()).toMatchObject({
      ok: false,
      reason: expect.stringContaining(p.id),
    })
    // Put back through the app (an audited update), the book is whole again.
    const cur = (await ana.byId(p.id))!
    await ana.update(
      p.id,
      { name: 'Alvo', taxNumber: cnpjFor(91), pixKeys: [{ key: 'alvo@example.com' }] },
      'ana',
      {
        expectedUpdatedAt: cur.updatedAt,
      },
    )
    expect(await verifyPgPayees(anaDesk.pool)).toBeNull()
    expect((await brunoDesk.verifyAuditChain()).ok).toBe(true)
  })

  it('a role outside the analysts group gets the clear message', async () => {
    await team.addAnalyst('outsider', false)
    // It may see the schema (a half-done setup); the book's tables are the group's only.
    await (await team.owner()).query('GRANT USAGE ON SCHEMA ledger TO outsider')
    const pool = pgPool({ connection: team.config('outsider') })
    try {
      const e = await pgPayeeStore(pool)
        .create(maria, 'outsider')
        .then(
          () => null,
          (x: unknown) => x,
        )
      expect(e).toBeInstanceOf(TeamLedgerError)
      expect(e).toMatchObject({ code: 'permission_denied' })
      expect((e as TeamLedgerError).userMessage['pt-BR']).toContain('depix_analysts')
      expect((e as TeamLedgerError).userMessage.en).toContain('depix_analysts')
      expect(
        await pgPayeeStore(pool)
          .search('')
          .catch((x: unknown) => x),
      ).toMatchObject({ code: 'permission_denied' })
    } finally {
      await pool.end()
    }
  })

  it('a desk book exported as CSV imports onto the team book once: a second import changes nothing', async () => {
    const file = path.join(dir, 'book.csv')
    const rows = [
      { name: 'Importada Um', taxNumber: cnpjFor(92), pixKeys: [{ key: 'imp1@example.com' }] },
      { name: 'Importada Dois', taxNumber: cnpjFor(93), pixKeys: [{ key: 'imp2@example.com' }] },
    ].map((r, i) => ({
      ...r,
      id: `x${i}`,
      createdAt: '',
      updatedAt: '',
      pixKeys: r.pixKeys.map((k) => ({ ...k, type: 'email' as const })),
    }))
    // One bad row in the middle: refused alone, the others kept (one transaction, a savepoint per row).
    const text = payeesCsv(rows, 'pt-BR', ';') + '"Sem documento";"";"email:nada@example.com";"";""\r\n'
    fs.writeFileSync(file, text)
    const before = (await ana.all()).length
    const first = await importPayeesCsv(ana, file, 'ana')
    expect(first.imported.map((r) => r.name)).toEqual(['Importada Um', 'Importada Dois'])
    expect(first.rejected).toHaveLength(1)
    expect(first.rejected[0]?.problems).toEqual([{ field: 'taxNumber', code: 'payee_tax_number_required' }])
    expect((await bruno.all()).length).toBe(before + 2)
    const second = await importPayeesCsv(bruno, file, 'bruno')
    expect(second.imported).toEqual([])
    expect(second.rejected.map((r) => r.problems[0]?.code)).toEqual([
      'payee_tax_number_taken',
      'payee_tax_number_taken',
      'payee_tax_number_required',
    ])
    expect((await ana.all()).length).toBe(before + 2)
    const created = await Promise.all(first.imported.map(async (r) => audits(r.id)))
    expect(
      created.map((t) => t.map((a) => [a.action, a.operator, (a.details as { via: string }).via])),
    ).toEqual([[['payee.created', 'ana', 'import']], [['payee.created', 'ana', 'import']]])
  })
})

/** A valid CNPJ per number (check digits computed), so each test has its own documents. */
function cnpjFor(n: number): string {
  const base = `11222333${String(1000 + n).padStart(4, '0')}`
  const digit = (s: string, weights: number[]): number => {
    const sum = [...s].reduce((acc, c, i) => acc + Number(c) * (weights[i] as number), 0)
    const r = sum % 11
    return r < 2 ? 0 : 11 - r
  }
  const d1 = digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  const d2 = digit(base + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return `${base}${d1}${d2}`
}
