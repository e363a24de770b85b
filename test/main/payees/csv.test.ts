import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createPayeeBook,
  importPayeesCsv,
  PayeeImportError,
  payeesCsv,
  PAYEES_CSV_MAX_BYTES,
} from '../../../src/main/payees'
import { tempDir, tempLedger } from '../ledger/sqlite/helpers'

const BOM = '\uFEFF'

async function importError(p: Promise<unknown>): Promise<PayeeImportError> {
  try {
    await p
  } catch (e) {
    if (e instanceof PayeeImportError) return e
    throw e
  }
  throw new Error('expected a PayeeImportError')
}

function file(name: string, content: string | Buffer): string {
  const f = path.join(tempDir(), name)
  writeFileSync(f, content)
  return f
}

describe('payees CSV', () => {
  it('export then import into an empty book gives the same payees (both locales), formulas neutralised', async () => {
    for (const [locale, delimiter] of [
      ['pt-BR', ';'],
      ['en', ','],
    ] as const) {
      const { ledger } = tempLedger()
      const book = createPayeeBook(ledger)
      book.create(
        {
          name: '=HYPERLINK("http://x")',
          taxNumber: '52998224725',
          pixKeys: [{ key: 'maria@example.com' }, { key: '+5561988887777' }],
          euid: 'EU-1',
          notes: 'Paga; dia 5, "sempre"',
        },
        'ana',
      )
      book.create(
        { name: 'Fornecedora', taxNumber: '11222333000181', pixKeys: [{ key: '11222333000181' }] },
        'ana',
      )
      const text = payeesCsv(book.all(), locale, delimiter)
      expect(text.startsWith(BOM)).toBe(true)
      // The dangerous cell starts with a quote mark in the file: a spreadsheet shows it as text.
      expect(text).toContain(`"'=HYPERLINK(""http://x"")"`)

      const other = createPayeeBook(tempLedger().ledger)
      const r = await importPayeesCsv(other, file('favorecidos.csv', text), 'bruno')
      expect(r.rejected).toEqual([])
      expect(r.imported.map((i) => [i.line, i.name])).toEqual([
        [2, '=HYPERLINK("http://x")'],
        [3, 'Fornecedora'],
      ])
      const strip = (p: { id: string; createdAt: string; updatedAt: string }) => ({
        ...p,
        id: '',
        createdAt: '',
        updatedAt: '',
      })
      expect(other.all().map(strip)).toEqual(book.all().map(strip))
    }
  })

  it('keeps the good rows, lists each bad one with its line and the field and reason', async () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    book.create(
      { name: 'Já cadastrada', taxNumber: '11222333000181', pixKeys: [{ key: 'ja@example.com' }] },
      'ana',
    )
    const csv = [
      'nome;cpf/cnpj;chaves pix;observações;Coluna extra',
      'Maria;529.982.247-25;email:maria@example.com | telefone:+55 61 98888-7777;ok;x',
      'CPF errado;529.982.247-26;a@b.co;;',
      '',
      ';123;;;',
      'Repetida;52998224725;outra@example.com;;',
      'Chave ruim;39053344705;cpf:a@b.co;;',
      'Já existe;11.222.333/0001-81;novo@example.com;;',
      '"Nome com ""aspas""; e separador";11144477735;chave@example.com;;',
    ].join('\r\n')
    const r = await importPayeesCsv(book, file('lista.csv', csv), 'ana')
    expect(r.fileName).toBe('lista.csv')
    expect(r.ignoredColumns).toEqual(['Coluna extra'])
    expect(r.imported.map((i) => [i.line, i.name])).toEqual([
      [2, 'Maria'],
      [9, 'Nome com "aspas"; e separador'],
    ])
    expect(r.rejected).toEqual([
      { line: 3, name: 'CPF errado', problems: [{ field: 'taxNumber', code: 'tax_number_check_digits' }] },
      {
        line: 5,
        name: '',
        problems: [
          { field: 'name', code: 'payee_name_required' },
          { field: 'taxNumber', code: 'tax_number_format' },
          { field: 'pixKeys', code: 'payee_keys_required' },
        ],
      },
      { line: 6, name: 'Repetida', problems: [{ field: 'taxNumber', code: 'payee_repeated_in_file' }] },
      { line: 7, name: 'Chave ruim', problems: [{ field: 'pixKeys.0.key', code: 'pix_key_cpf_format' }] },
      { line: 8, name: 'Já existe', problems: [{ field: 'taxNumber', code: 'payee_tax_number_taken' }] },
    ])
    expect(book.byTaxNumber('52998224725')?.pixKeys).toEqual([
      { key: 'maria@example.com', type: 'email' },
      { key: '+5561988887777', type: 'phone' },
    ])
    expect(ledger.verifyAuditChain().ok).toBe(true)
    const created = ledger.audit({ limit: 10 }).rows.filter((e) => e.action === 'payee.created')
    expect(created.filter((e) => e.details.via === 'import')).toHaveLength(2)
  })

  it('refuses whole files it cannot trust, importing nothing, and says why', async () => {
    const { ledger } = tempLedger()
    const book = createPayeeBook(ledger)
    const dir = tempDir()
    const real = file('real.csv', 'nome;cpf/cnpj;chaves pix\r\nMaria;52998224725;a@b.co\r\n')
    const link = path.join(dir, 'link.csv')
    symlinkSync(real, link)
    expect((await importError(importPayeesCsv(book, link, 'ana'))).code).toBe('import_unreadable')
    expect((await importError(importPayeesCsv(book, path.join(dir, 'missing.csv'), 'ana'))).code).toBe(
      'import_unreadable',
    )
    if (process.platform !== 'win32') {
      const fifo = path.join(dir, 'fifo.csv')
      execFileSync('mkfifo', [fifo])
      // Opening a FIFO must not wait for a writer.
      expect((await importError(importPayeesCsv(book, fifo, 'ana'))).code).toBe('import_unreadable')
    }
    const big = file('big.csv', Buffer.alloc(PAYEES_CSV_MAX_BYTES + 1, 0x41))
    expect((await importError(importPayeesCsv(book, big, 'ana'))).code).toBe('import_too_large')
    const latin1 = file(
      'latin1.csv',
      Buffer.from('nome;cpf/cnpj;chaves pix\r\nJos\xe9;52998224725;a@b.co\r\n', 'latin1'),
    )
    expect((await importError(importPayeesCsv(book, latin1, 'ana'))).code).toBe('import_not_utf8')
    const broken = file('broken.csv', 'nome;cpf/cnpj;chaves pix\r\n"Maria;52998224725;a@b.co\r\n')
    const e = await importError(importPayeesCsv(book, broken, 'ana'))
    expect(e.code).toBe('import_not_csv')
    expect(e.detail).toMatch(/line 2/)
    const noKeys = file('nokeys.csv', 'nome;documento\r\nMaria;52998224725\r\n')
    const missing = await importError(importPayeesCsv(book, noKeys, 'ana'))
    expect(missing.code).toBe('import_missing_columns')
    expect(missing.missing).toEqual(['pixKeys'])
    expect((await importError(importPayeesCsv(book, file('empty.csv', ''), 'ana'))).code).toBe(
      'import_no_header',
    )
    const many = file('many.csv', `nome,cpf,chave\r\n${'a,b,c\r\n'.repeat(5002)}`)
    expect((await importError(importPayeesCsv(book, many, 'ana'))).code).toBe('import_too_many_rows')
    expect(book.search('').total).toBe(0)
  })
})
