import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { createPayeeBook, PayeeError, payeeStateHash, payeeSubject } from '../../../src/main/payees'
import { tempLedger } from '../ledger/sqlite/helpers'

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

function refusal(fn: () => unknown): PayeeError {
  try {
    fn()
  } catch (e) {
    if (e instanceof PayeeError) return e
    throw e
  }
  throw new Error('expected a PayeeError')
}

describe('payee book', () => {
  it('creates, finds by id, name, document (masked or not) and key, lists by name', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const m = book.create(maria, 'ana')
    const f = book.create(fornecedora, 'ana')
    expect(book.byId(m.id)).toEqual(m)
    expect(m.pixKeys).toEqual([
      { key: 'maria@example.com', type: 'email' },
      { key: '52998224725', type: 'cpf' },
    ])
    expect(book.search('').rows.map((p) => p.name)).toEqual([
      'Fornecedora Exemplo Ltda',
      'Maria da Silva Sandbox',
    ])
    expect(book.search('MARIA').rows.map((p) => p.id)).toEqual([m.id])
    expect(book.search('sílva').rows.map((p) => p.id)).toEqual([m.id])
    expect(book.search('11.222.333/0001-81').rows.map((p) => p.id)).toEqual([f.id])
    expect(book.search('222333').rows.map((p) => p.id)).toEqual([f.id])
    expect(book.search('(61) 98888').rows.map((p) => p.id)).toEqual([f.id])
    expect(book.search('example.com').rows.map((p) => p.id)).toEqual([m.id])
    expect(book.search('nobody').total).toBe(0)
    // LIKE wildcards typed by the user are text, not patterns.
    expect(book.search('%').total).toBe(0)
    expect(book.byTaxNumber('11222333000181')?.id).toBe(f.id)
  })

  it('every change is an audited entry in the ledger chain, carrying the state it produced', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const m = book.create(maria, 'ana')
    const updated = book.update(m.id, { ...maria, name: 'Maria da Silva' }, 'bruno')
    book.remove(m.id, 'carla')
    const entries = ledger.audit({ subject: payeeSubject(m.id) }).rows.reverse()
    expect(entries.map((e) => [e.action, e.operator])).toEqual([
      ['payee.created', 'ana'],
      ['payee.updated', 'bruno'],
      ['payee.removed', 'carla'],
    ])
    expect(entries[0]?.stateHash).toBe(payeeStateHash(m))
    expect(entries[1]?.stateHash).toBe(payeeStateHash(updated))
    expect(entries[1]?.details).toMatchObject({
      before: { name: 'Maria da Silva Sandbox' },
      after: { name: 'Maria da Silva' },
    })
    expect(entries[2]?.stateHash).toBe(payeeStateHash(null))
    expect(book.byId(m.id)).toBeUndefined()
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })

  it('an update that changes nothing writes nothing', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const m = book.create(maria, 'ana')
    const head = ledger.auditHead()
    expect(book.update(m.id, { ...maria, name: ' Maria  da Silva Sandbox ' }, 'ana')).toEqual(m)
    expect(ledger.auditHead()).toEqual(head)
  })

  it('one entry per CPF/CNPJ, one owner per Pix key; refusals name the field and write nothing', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const m = book.create(maria, 'ana')
    const head = ledger.auditHead()
    const sameDoc = refusal(() => book.create({ ...fornecedora, taxNumber: '52998224725' }, 'ana'))
    expect(sameDoc.code).toBe('payee_tax_number_taken')
    expect(sameDoc.fields).toEqual({ taxNumber: 'payee_tax_number_taken' })
    const sameKey = refusal(() =>
      book.create(
        { ...fornecedora, pixKeys: [{ key: '+5561988887777' }, { key: 'MARIA@example.com' }] },
        'ana',
      ),
    )
    expect(sameKey.code).toBe('payee_key_taken')
    expect(sameKey.fields).toEqual({ 'pixKeys.1.key': 'payee_key_taken' })
    const invalid = refusal(() => book.create({ ...fornecedora, taxNumber: '11.222.333/0001-82' }, 'ana'))
    expect(invalid.fields).toEqual({ taxNumber: 'tax_number_check_digits' })
    expect(ledger.auditHead()).toEqual(head)
    expect(book.search('').total).toBe(1)
    // Its own keys and document are not "taken" from itself.
    expect(
      book.update(m.id, { ...maria, pixKeys: [...maria.pixKeys, { key: 'outra@example.com' }] }, 'ana')
        .pixKeys,
    ).toHaveLength(3)
    expect(refusal(() => book.update('nope', maria, 'ana')).code).toBe('payee_not_found')
    expect(refusal(() => book.remove('nope', 'ana')).code).toBe('payee_not_found')
  })

  it('createMany keeps the valid entries in one transaction and reports each refusal at its index', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const out = book.createMany(
      [maria, { ...fornecedora, taxNumber: 'x' }, fornecedora, { ...fornecedora, taxNumber: '52998224725' }],
      'ana',
      'import',
    )
    expect(out.map((o) => (o.ok ? 'ok' : o.error.code))).toEqual([
      'ok',
      'invalid_payee',
      'ok',
      'payee_tax_number_taken',
    ])
    expect(book.search('').total).toBe(2)
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })

  it('a key removed from one payee is free for another (the key index follows every write)', () => {
    const { ledger, file } = tempLedger()
    const book = createPayeeBook(ledger)
    const m = book.create(maria, 'ana')
    book.update(m.id, { ...maria, pixKeys: [{ key: '52998224725', type: 'cpf' }] }, 'ana')
    expect(
      book.create({ ...fornecedora, pixKeys: [{ key: 'maria@example.com' }] }, 'ana').pixKeys[0]?.key,
    ).toBe('maria@example.com')
    book.remove(m.id, 'ana')
    ledger.close()
    const db = new DatabaseSync(file, { readOnly: true })
    expect(
      db
        .prepare('SELECT key FROM payee_keys ORDER BY key')
        .all()
        .map((r) => r.key),
    ).toEqual(['maria@example.com'])
    db.close()
  })

  it('the chain covers the book: a payee edited, added or deleted outside the app is found', async () => {
    for (const tamper of [
      "UPDATE payees SET name = 'Outra Pessoa'",
      "INSERT INTO payees (id, name, tax_number, pix_keys, created_at, updated_at, search_text) VALUES ('x', 'X', '39053344705', '[]', 'a', 'a', 'x')",
      'DELETE FROM payees',
    ]) {
      const { ledger, file } = tempLedger()
      const book = createPayeeBook(ledger)
      const m = book.create(maria, 'ana')
      expect(ledger.verifyAuditChain().ok).toBe(true)
      ledger.close()
      const db = new DatabaseSync(file)
      db.exec(tamper)
      db.close()
      const { ledger: reopened } = tempLedger({ file })
      const v = reopened.verifyAuditChain()
      expect(v.ok, tamper).toBe(false)
      expect(v.ok ? '' : v.reason).toMatch(/payee (x|\S+) /)
      // The snapshot walk (start-up check, exports) says the same.
      const snap = reopened.snapshot()
      expect((await snap.verify()).ok).toBe(false)
      snap.close()
      expect(m.id).toBeTruthy()
    }
  })

  it('after a removal through the app the chain still verifies (the entry records the removal)', () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    book.remove(book.create(maria, 'ana').id, 'ana')
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })
})
