/**
 * Import what people type (issue #26) and refuse what hides (issue #24), on files LibreOffice Calc wrote
 * (test/fixtures/runs/make-fixtures.py): +55 and national phone keys, documents with and without punctuation or as
 * numbers, amounts as number cells or pt-BR text, Excel's plain Windows-1252 CSV; formulas refused only where they
 * are ones; hidden sheets, rows and columns and custom amount formats refuse the file naming them; bidi, zero-width
 * and control characters refused naming line and column.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importRunFile } from '../../../src/main/runs/import'
import { CNPJ, CPF, CPF2, HEADER_PT, csvBytes, lineOf, validateCtx } from './helpers'

const ctx = validateCtx()
const fixture = (name: string): Uint8Array =>
  readFileSync(join(__dirname, '..', '..', 'fixtures', 'runs', name))

function codes(r: { issues: Array<{ line: number; field: string | null; code: string }> }): string[] {
  return r.issues.map((i) => `${i.line}:${i.field ?? '-'}:${i.code}`)
}

describe('what people type (LibreOffice-written files)', () => {
  it('XLSX: phone keys, documents, number and text amounts; the formula cell and the text formula refused', async () => {
    const r = await importRunFile(fixture('typed.xlsx'), ctx)
    expect(r.kind).toBe('xlsx')
    expect(codes(r)).toEqual(['7:payoutBrl:formula', '8:note:formula_like'])
    expect(
      r.rows.map((x) => [
        x.line,
        x.payee.name,
        x.draft.pixKey,
        // Kept as typed (the request sends the digits): with or without punctuation, both accepted.
        x.draft.taxNumber?.replace(/\D/g, ''),
        x.draft.amount.cents,
      ]),
    ).toEqual([
      [2, 'Fornecedor Ação', '+5511987654321', CPF, 123456],
      [3, 'Serviços Ltda', '+5511987654321', CPF, 123456],
      [4, 'Maria Conceição', '+5511987654322', CNPJ, 1000],
      [5, 'Zé', 'ze@example.com', CPF2, 1050],
      [6, 'João', '+5521998765432', CPF, 2000],
    ])
    // Notes that merely start with -, + or @ are text, kept as typed.
    expect(r.rows.map((x) => x.draft.references?.note ?? '')).toEqual([
      '- pagar até sexta',
      '+ urgente',
      '@maria',
      '',
      'Orçamento nº 7',
    ])
  })

  it('Excel’s plain CSV in Windows-1252 (";", accents) reads right', async () => {
    const bytes = fixture('typed-1252.csv')
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow()
    const r = await importRunFile(bytes, ctx)
    expect(codes(r)).toEqual([])
    expect(r.rows.map((x) => [x.payee.name, x.draft.pixKey, x.draft.amount.cents])).toEqual([
      ['Fornecedor Ação', '+5511987654321', 123456],
      ['Serviços Ltda', '+5511987654321', 123456],
      ['Maria Conceição', '+5511987654322', 1000],
      ['Zé', 'ze@example.com', 1050],
      ['João', '+5521998765432', 2000],
    ])
    expect(r.rows[4]?.draft.references?.note).toBe('Orçamento nº 7')
  })

  it('formulas are refused only where they are ones', async () => {
    const base = { key: 'a@example.com', tax: CPF, payout: '10,00' }
    const formulas = [
      '=SOMA(A1:A3)',
      '=A1',
      '=1+1',
      '+HYPERLINK("x")',
      "-cmd|' /C calc'!A0",
      '@SUM(A1)',
      '=Plan1!A1',
    ]
    for (const note of formulas) {
      const r = await importRunFile(csvBytes([HEADER_PT, lineOf({ ...base, note })]), ctx)
      expect(codes(r), note).toEqual(['2:note:formula_like'])
    }
    const text = ['+55 11 98765-4321', '-', '- 10,00 de desconto', '@fulano', '=', 'a=b', '+ urgente']
    for (const note of text) {
      const r = await importRunFile(csvBytes([HEADER_PT, lineOf({ ...base, note })]), ctx)
      expect(codes(r), note).toEqual([])
    }
  })
})

describe('what hides is refused, naming where', () => {
  it('a hidden row with content', async () => {
    const r = await importRunFile(fixture('hidden-row.xlsx'), ctx)
    expect(r.rows).toEqual([])
    expect(codes(r)).toEqual(['3:-:hidden_rows'])
    expect(r.issues[0]?.message['pt-BR']).toContain('(linhas 3)')
    expect(r.issues[0]?.message['pt-BR']).toContain('Reexiba as linhas')
  })

  it('a hidden column with content', async () => {
    const r = await importRunFile(fixture('hidden-column.xlsx'), ctx)
    expect(codes(r)).toEqual(['0:-:hidden_columns'])
    expect(r.issues[0]?.message['pt-BR']).toContain('(colunas F)')
  })

  it('a hidden sheet', async () => {
    const r = await importRunFile(fixture('hidden-sheet.xlsx'), ctx)
    expect(codes(r)).toEqual(['0:-:hidden_sheets'])
    expect(r.issues[0]?.message['pt-BR']).toContain('(Extra)')
  })

  it('an amount cell whose custom format shows another number', async () => {
    const r = await importRunFile(fixture('custom-format.xlsx'), ctx)
    expect(r.rows).toEqual([])
    expect(codes(r)).toEqual(['0:-:amount_custom_format'])
    expect(r.issues[0]?.message['pt-BR']).toContain('(E2)')
    expect(r.issues[0]?.message['pt-BR']).toContain('"Número" ou "Moeda" com 2 casas decimais')
  })

  it('bidi, zero-width and control characters in a name or note: refused, line and column named', async () => {
    // Displayed by Chromium, U+202E reverses what follows: a R$ 100,00 row would read "Fornecedor R$ 5.000,00".
    const tricks = [
      `Fornecedor \u202E00,000.5 $R`,
      `Fornecedor \u2067R$ 5.000,00\u2069`,
      `Forne\u200Bcedor`,
      `Fornecedor\u200F`,
      `Fornecedor\u0007`,
    ]
    for (const payee of tricks) {
      const r = await importRunFile(
        csvBytes([HEADER_PT, lineOf({ payee, key: 'a@example.com', tax: CPF, payout: '100,00' })]),
        ctx,
      )
      expect(r.rows, JSON.stringify(payee)).toEqual([])
      expect(codes(r)).toEqual(['2:payee:hidden_characters'])
      expect(r.issues[0]?.message['pt-BR']).toMatch(/^Linha 2, coluna "Favorecido": a célula tem caracteres/)
    }
    const note = await importRunFile(
      csvBytes([HEADER_PT, lineOf({ key: 'a@example.com', tax: CPF, payout: '100,00', note: 'ok\u202Dx' })]),
      ctx,
    )
    expect(note.issues[0]?.message['pt-BR']).toMatch(/^Linha 2, coluna "Observação": /)
  })
})
