/**
 * Import and validation of run files: CSV with Excel's quirks, XLSX through the worker, the header rules, every
 * bad cell reported with line, column and reason, good rows kept, duplicates and payees, the refund address.
 */
import { describe, expect, it } from 'vitest'
import { importRunFile, readGrid } from '../../../src/main/runs/import'
import { runTemplateCsv } from '../../../src/main/runs/import/template'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import {
  CPF,
  CPF2,
  HEADER_PT,
  OTHER_NETWORK_ADDRESS,
  PayeeBook,
  REFUND,
  csvBytes,
  goodLines,
  lineOf,
  validateCtx,
  xlsxBytes,
} from './helpers'

const ctx = validateCtx()

function codes(r: { issues: Array<{ line: number; field: string | null; code: string }> }): string[] {
  return r.issues.map((i) => `${i.line}:${i.field ?? '-'}:${i.code}`)
}

describe('CSV', () => {
  it('reads the pt-BR template with BOM, ";" and CRLF, decimal comma and references', async () => {
    const text = runTemplateCsv('pt-BR') + goodLines(3).join('\r\n')
    const r = await importRunFile(new TextEncoder().encode(text), ctx)
    expect(r.issues).toEqual([])
    expect(r.kind).toBe('csv')
    expect(r.rows.map((x) => x.line)).toEqual([2, 3, 4])
    expect(r.rows[0]!.draft).toEqual({
      pixKey: 'fornecedor0@example.com',
      taxNumber: CPF,
      amount: { kind: 'payout', cents: 10050 },
      refundAddress: REFUND,
      references: { invoice: 'NF-0', costCentre: 'Obras', category: 'Serviços' },
    })
    expect(r.rows[0]!.refundFromProfile).toBe(true)
  })

  it('reads the English template with "," and LF, and the other language’s headers too', async () => {
    const en = runTemplateCsv('en').trim()
    const lines = [en, `Acme,acme@example.com,email,${CPF},,"1.234,56",,NF 9,,,,${REFUND}`]
    const r = await importRunFile(csvBytes(lines, { eol: '\n' }), ctx)
    expect(codes(r)).toEqual([])
    expect(r.rows[0]!.draft.amount).toEqual({ kind: 'payout', cents: 123456 })
    expect(r.rows[0]!.draft.pixKeyType).toBe('email')
    expect(r.rows[0]!.refundFromProfile).toBe(false)
  })

  it('undoes ="0123" text cells, ignores trailing empty columns and blank lines, keeps line numbers', async () => {
    const lines = [
      `${HEADER_PT};;;`,
      '',
      `X;="01234567890";="cpf";="${CPF2}";;="10,00";;;;;;;;`,
      ';;;;;;;;;;;',
      `Y;y@example.com;;${CPF};;"2.000";;;;;"linha 1`,
      `linha 2";`,
      `Z;z@example.com;;${CPF};;12.50;;;;;;`,
    ]
    const r = await importRunFile(csvBytes(lines, { bom: true }), ctx)
    // Line 3 keeps its leading zero; line 5–6: a line break in a note (one cell over two lines);
    // line 7: "12.50" in a pt-BR file is refused, not guessed.
    expect(codes(r)).toEqual(['5:note:hidden_characters', '7:payoutBrl:amount_format'])
    expect(r.rows.map((x) => [x.line, x.draft.pixKey, x.draft.pixKeyType, x.draft.amount.cents])).toEqual([
      [3, '01234567890', 'cpf', 1000],
    ])
    expect(r.issues[0]!.column).toBe('Observação')
    expect(r.issues[1]!.message['pt-BR']).toContain('vírgula decimal')
    expect(r.lines).toBe(3)
  })

  it('reports every bad cell of a line and keeps the good lines', async () => {
    const lines = [
      HEADER_PT,
      ...goodLines(2),
      lineOf({ key: 'not a key', tax: '123', payout: '1,00', cat: '=SOMA(A1:A9)' }),
      lineOf({ key: 'a@example.com', tax: CPF, payout: '10,00', depix: '10,00' }),
      lineOf({ key: 'b@example.com', tax: CPF }),
      lineOf({ key: 'c@example.com', tax: CPF, payout: '9.000,00' }),
      lineOf({ key: 'd@example.com', payout: '10,00' }),
      lineOf({ key: 'e@example.com', tax: CPF, payout: '10,00', note: '@SOMA(A1:A3)' }),
      lineOf({ key: 'f@example.com', type: 'fax', tax: CPF, payout: '10,00' }),
    ]
    const r = await importRunFile(csvBytes(lines), ctx)
    expect(r.rows.map((x) => x.line)).toEqual([2, 3])
    expect(codes(r)).toEqual([
      '4:category:formula_like',
      '5:payoutBrl:amount_both',
      '5:depositDepix:amount_both',
      '6:payoutBrl:amount_missing',
      '7:payoutBrl:amount_above_max',
      '8:taxNumber:beneficiary_required',
      '8:euid:beneficiary_required',
      '9:note:formula_like',
      '10:pixKeyType:pix_key_type_unknown',
    ])
    for (const i of r.issues) {
      expect(i.message['pt-BR']).not.toBe('')
      expect(i.message.en).not.toBe(i.message['pt-BR'])
    }
  })

  it('checks draft fields with the form’s schema once the cells are readable', async () => {
    const lines = [HEADER_PT, lineOf({ key: 'not a key', tax: '123', payout: '1,00' })]
    const r = await importRunFile(csvBytes(lines), ctx)
    expect(codes(r)).toEqual([
      '2:taxNumber:tax_number_format',
      '2:payoutBrl:amount_below_min',
      '2:pixKey:pix_key_unrecognized',
    ])
  })

  it('reads DePix amounts in the wire form and with a decimal comma', async () => {
    const lines = [
      HEADER_PT,
      lineOf({ key: 'a@example.com', tax: CPF, depix: '12.34000000' }),
      lineOf({ key: 'b@example.com', tax: CPF, depix: '1.234,5' }),
      lineOf({ key: 'c@example.com', tax: CPF, depix: '12.345' }),
    ]
    const r = await importRunFile(csvBytes(lines), ctx)
    expect(r.rows.map((x) => x.draft.amount)).toEqual([
      { kind: 'deposit', cents: 1234 },
      { kind: 'deposit', cents: 123450 },
    ])
    expect(codes(r)).toEqual(['4:depositDepix:depix_format'])
  })

  it('refuses an unknown or repeated header, and a header without key or amount column', async () => {
    const a = await importRunFile(csvBytes(['Chave Pix;Valr do Pix;Chave Pix', 'a@example.com;1,00;x']), ctx)
    expect(codes(a)).toEqual(['1:-:unknown_column', '1:pixKey:repeated_column', '1:-:missing_amount_column'])
    expect(a.issues[0]!.column).toBe('Valr do Pix')
    const b = await importRunFile(csvBytes(['Categoria;NF', 'x;y']), ctx)
    expect(codes(b)).toEqual(['1:-:missing_pix_key_column', '1:-:missing_amount_column'])
  })

  it('uses the refund column, else the profile default, and Liquid-checks it', async () => {
    const lines = [
      HEADER_PT,
      lineOf({ key: 'a@example.com', tax: CPF, payout: '10,00', refund: OTHER_NETWORK_ADDRESS }),
      lineOf({ key: 'b@example.com', tax: CPF, payout: '10,00', refund: 'lq1notanaddress' }),
    ]
    const r = await importRunFile(csvBytes(lines), ctx)
    expect(codes(r)).toEqual([
      '2:refundAddress:refund_address_liquid',
      '3:refundAddress:refund_address_liquid',
    ])
    expect(r.issues[0]!.message['pt-BR']).toContain('rede')
    const none = await importRunFile(
      csvBytes([HEADER_PT, lineOf({ key: 'a@example.com', tax: CPF, payout: '10,00' })]),
      {
        ...ctx,
        defaultRefundAddress: null,
      },
    )
    expect(codes(none)).toEqual(['2:refundAddress:refund_address_missing'])
  })

  it('flags duplicates inside the file and against the ledger’s recent payments', async () => {
    const seen: unknown[] = []
    const similar = (q: { pixKey: string; amountCents: number }): WithdrawalRecord[] => {
      seen.push(q)
      return q.pixKey === 'old@example.com' ? ([{ localId: 'w-1' }] as WithdrawalRecord[]) : []
    }
    const lines = [
      HEADER_PT,
      lineOf({ key: 'Same@Example.com', tax: CPF, payout: '10,00' }),
      lineOf({ key: 'same@example.com', tax: CPF, payout: '10,00' }),
      lineOf({ key: 'same@example.com', tax: CPF, payout: '11,00' }),
      lineOf({ key: 'old@example.com', tax: CPF, payout: '10,00' }),
    ]
    const r = await importRunFile(csvBytes(lines), validateCtx({ findRecentSimilar: similar }))
    expect(r.rows.map((x) => x.duplicate)).toEqual([
      { lines: [3], ledger: [] },
      { lines: [2], ledger: [] },
      null,
      { lines: [], ledger: ['w-1'] },
    ])
    // The guard query gets the canonical key, the amount and the 24 h window of the single-payment create.
    expect(seen[0]).toMatchObject({ pixKey: 'same@example.com', amountCents: 1000, profile: 'sandbox' })
  })

  it('matches payees by book id or unique name; ambiguous or unknown names need a Pix key', async () => {
    const book = new PayeeBook([
      { id: 'p-1', name: 'Acme', pixKey: 'acme@example.com', taxNumber: CNPJ() },
      { id: 'p-2', name: 'Duplo', pixKey: 'd1@example.com', taxNumber: CPF },
      { id: 'p-3', name: 'Duplo', pixKey: 'd2@example.com', taxNumber: CPF },
    ])
    const lines = [
      HEADER_PT,
      lineOf({ payee: 'p-1', payout: '10,00' }),
      lineOf({ payee: 'acme', key: 'other@example.com', payout: '11,00' }),
      lineOf({ payee: 'Duplo', payout: '12,00' }),
      lineOf({ payee: 'Ninguém', payout: '13,00' }),
      lineOf({ payee: 'Ninguém', key: 'n@example.com', tax: CPF, payout: '14,00' }),
    ]
    const r = await importRunFile(csvBytes(lines), validateCtx({ payees: book }))
    expect(codes(r)).toEqual(['4:payee:payee_ambiguous', '5:payee:payee_not_found'])
    const [byId, byName, unknown] = r.rows
    expect(byId!.payee).toEqual({ kind: 'id', payeeId: 'p-1', name: 'Acme' })
    expect(byId!.draft.pixKey).toBe('acme@example.com')
    expect(byId!.draft.taxNumber).toBe(CNPJ())
    expect(byName!.payee.kind).toBe('name')
    expect(byName!.warnings.map((w) => w.code)).toEqual(['payee_key_differs'])
    expect(unknown!.payee).toEqual({ kind: 'none', payeeId: null, name: 'Ninguém' })
  })
})

function CNPJ(): string {
  return '11222333000181'
}

describe('encodings and sizes', () => {
  it('refuses mixed or undefined encodings, UTF-16 and binary files with their own reason', async () => {
    // Windows-1252 reads (test/main/runs/import-typed.test.ts); a byte it leaves undefined, or UTF-8 mixed with
    // single-byte accents, is neither: refused whole.
    const undefined1252 = Uint8Array.from(
      [...'Observa'].map((c) => c.charCodeAt(0)).concat([0xe7, 0x81, 0x6f]),
    )
    expect(codes(await importRunFile(undefined1252, ctx))).toEqual(['0:-:not_utf8'])
    const mixed = Uint8Array.from([0x4f, 0xc3, 0xa7, 0x3b, 0xe7, 0x6f])
    expect(codes(await importRunFile(mixed, ctx))).toEqual(['0:-:not_utf8'])
    const utf16 = new Uint8Array([0xff, 0xfe, 0x43, 0x00])
    expect(codes(await importRunFile(utf16, ctx))).toEqual(['0:-:utf16'])
    expect(codes(await importRunFile(new Uint8Array([0x43, 0, 0x44]), ctx))).toEqual(['0:-:binary'])
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    expect(codes(await importRunFile(xls, ctx))).toEqual(['0:-:old_xls'])
    expect(codes(await importRunFile(new Uint8Array(), ctx))).toEqual(['0:-:file_empty'])
  })

  it('refuses more than 10 MB unread, and more than 1,000 rows whole', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41)
    expect(codes(await importRunFile(big, ctx))).toEqual(['0:-:file_too_large'])
    const many = csvBytes([HEADER_PT, ...goodLines(100_000)].slice(0, 100_001))
    const r = await importRunFile(
      many.length > 10 * 1024 * 1024 ? many.subarray(0, 10 * 1024 * 1024) : many,
      ctx,
    )
    expect(codes(r)).toEqual(['1002:-:too_many_rows'])
    const exactly = await importRunFile(csvBytes([HEADER_PT, ...goodLines(1000)]), ctx)
    expect(exactly.rows).toHaveLength(1000)
    expect(exactly.issues).toEqual([])
  })

  it('refuses an unclosed quote, a huge cell and too many columns with the line', async () => {
    expect(codes(await importRunFile(csvBytes([HEADER_PT, 'a;"b;c', 'd']), ctx))).toEqual([
      '2:-:unclosed_quote',
    ])
    expect(codes(await importRunFile(csvBytes([HEADER_PT, `a;${'x'.repeat(2000)}`]), ctx))).toEqual([
      '2:-:cell_too_long',
    ])
    expect(codes(await importRunFile(csvBytes([HEADER_PT, ';'.repeat(60)]), ctx))).toEqual([
      '2:-:too_many_columns',
    ])
  })
})

describe('XLSX', () => {
  const header = ['Favorecido', 'Chave Pix', 'CPF/CNPJ', 'Valor do Pix (R$)', 'Categoria']

  it('reads text and number cells; a CPF typed as a number gets its leading zero back', async () => {
    const bytes = await xlsxBytes([
      header,
      ['Acme', 'acme@example.com', Number('05298822472'.slice(0, 11)), 1234.56, 'Serviços'],
      ['Beta', 'beta@example.com', CPF, '99,90', null],
      ['Gama', 'gama@example.com', CPF, 10.005, null],
    ])
    const r = await importRunFile(bytes, ctx)
    expect(r.kind).toBe('xlsx')
    // 05298822472 is not a valid CPF: the zero came back and the check digits decided.
    expect(codes(r)).toEqual(['2:taxNumber:tax_number_check_digits', '4:payoutBrl:amount_format'])
    expect(r.rows.map((x) => x.draft.amount.cents)).toEqual([9990])
    const ok = await importRunFile(
      await xlsxBytes([header, ['A', 'a@example.com', 11144477735, 1234.5, '']]),
      ctx,
    )
    expect(ok.rows[0]!.draft).toMatchObject({ taxNumber: CPF2, amount: { kind: 'payout', cents: 123450 } })
  })

  it('refuses formulas (cached values are not taken), dates, booleans and errors per cell', async () => {
    const bytes = await xlsxBytes(
      [
        header,
        ['A', 'a@example.com', CPF, 10, ''],
        ['B', 'b@example.com', CPF, 10, ''],
        ['C', 'c@example.com', CPF, 10, ''],
      ],
      (ws) => {
        ws.getCell('D2').value = { formula: 'SUM(1,2)', result: 3 }
        ws.getCell('E3').value = new Date('2026-01-01T00:00:00Z')
        ws.getCell('E4').value = true
      },
    )
    const r = await importRunFile(bytes, ctx)
    expect(codes(r)).toEqual(['2:payoutBrl:formula', '3:category:cell_date', '4:category:cell_boolean'])
    expect(r.issues[0]!.message['pt-BR']).toContain('Fórmulas')
  })

  it('refuses merged cells', async () => {
    const bytes = await xlsxBytes(
      [header, ['A', 'a@example.com', CPF, 10, 'x'], ['B', 'b@example.com', CPF, 10, '']],
      (ws) => ws.mergeCells('E2:E3'),
    )
    expect(codes(await importRunFile(bytes, ctx))).toEqual(['0:-:merged_cells'])
  })

  it('refuses a zip that is not a workbook, a truncated one, and declared bombs before inflating', async () => {
    const good = await xlsxBytes([header, ['A', 'a@example.com', CPF, 10, 'x']])
    expect(codes(await importRunFile(good.subarray(0, good.length - 30), ctx))).toEqual([
      '0:-:xlsx_unreadable',
    ])
    const bomb = Uint8Array.from(good)
    const view = new DataView(bomb.buffer)
    // Declare a 1 GiB part in the central directory of an otherwise valid file.
    for (let p = 0; p < bomb.length - 4; p++) {
      if (view.getUint32(p, true) === 0x02014b50) {
        view.setUint32(p + 24, 1 << 30, true)
        break
      }
    }
    expect(codes(await importRunFile(bomb, ctx))).toEqual(['0:-:xlsx_too_big'])
  })

  it('a worker that cannot finish in time is stopped and the file refused', async () => {
    const bytes = await xlsxBytes([
      header,
      ...Array.from({ length: 300 }, (_, i) => [`F${i}`, `f${i}@example.com`, CPF, 10, '']),
    ])
    const r = await readGrid(bytes, { timeoutMs: 1 })
    expect(r.grid).toEqual({ ok: false, code: 'xlsx_timeout', line: 0 })
  })

  it('100,000 rows are refused, never read whole into the run', async () => {
    const rows = [
      header,
      ...Array.from({ length: 100_000 }, (_, i) => [`F${i}`, `f${i}@example.com`, CPF, 10, '']),
    ]
    const r = await importRunFile(await xlsxBytes(rows), ctx)
    expect(r.rows).toEqual([])
    expect(['too_many_rows', 'xlsx_timeout', 'xlsx_too_big']).toContain(r.issues[0]!.code)
  }, 120_000)
})
