import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEPOSIT_CSV_COLUMNS, LEGACY_DEPOSIT_CSV_COLUMNS } from '../../../src/main/records/deposit-columns'
import {
  csvCell,
  csvHeader,
  csvLine,
  CsvSyntaxError,
  neutralise,
  parseCsv,
  unneutralise,
  type CsvDelimiter,
} from '../../../src/main/records/csv'
import {
  COLUMNS_BEFORE_REFERENCES,
  CSV_COLUMNS,
  LEGACY_CSV_COLUMNS,
  PEOPLE_V1_CSV_COLUMNS,
  PT_HEADER_V1,
} from '../../../src/main/records/columns'

function parse(text: string, d: CsvDelimiter): string[][] {
  const rows: string[][] = []
  parseCsv(Buffer.from(text, 'utf8'), d, (row) =>
    rows.push(Array.from({ length: row.length }, (_, i) => row.cell(i))),
  )
  return rows
}

describe('formula injection', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@x', "'@x"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\nx', "'\nx"],
    ["'already", "''already"],
    ['  =1+1', "'  =1+1"],
    ['＝1+1', "'＝1+1"],
    ['+5511987654321', "'+5511987654321"],
  ])('%j is neutralised', (input, out) => {
    expect(neutralise(input)).toBe(out)
    expect(unneutralise(neutralise(input))).toBe(input)
  })

  it.each([
    ['Ana,=1+1,x', "Ana,'=1+1,x"],
    ['Ana;=1+1;x', "Ana;'=1+1;x"],
    ['a, +1', "a,' +1"],
    ['a;@x', "a;'@x"],
    ['a,\t=1', "a,'\t'=1"],
    ['a\n-1', "a\n'-1"],
    ['a\r\n=1', "a\r'\n'=1"],
    ["a,'b", "a,''b"],
    ['=a;=b', "'=a;'=b"],
    ['a,,=1', "a,,'=1"],
  ])('%j is neutralised after each separator, tab, CR and LF', (input, out) => {
    expect(neutralise(input)).toBe(out)
    expect(unneutralise(neutralise(input))).toBe(input)
  })

  it.each([
    'Ana',
    '1.234,56',
    '2025-01-01T00:00:00.000Z',
    '',
    'a=b',
    'x-1',
    'joão@example.com',
    'a, b',
    'a;1',
  ])('%j is left alone', (input) => {
    expect(neutralise(input)).toBe(input)
  })
})

describe('RFC 4180 quoting', () => {
  it('quotes every field, doubling quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('Ana')).toBe('"Ana"')
    expect(csvCell('')).toBe('""')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"')
    expect(csvLine(['a', 'b;c', ''], ';')).toBe('"a";"b;c";""\r\n')
    expect(csvLine(['a', 'b;c', ''], ',')).toBe('"a","b;c",""\r\n')
  })

  it('a neutralised cell that needs quotes is neutralised inside the quotes', () => {
    expect(csvCell('=HYPERLINK("http://x";"y")')).toBe('"\'=HYPERLINK(""http://x"";""y"")"')
    expect(csvCell('\r=1')).toBe('"\'\r\'=1"')
  })

  it('round-trips any text through write, parse and un-neutralise (both delimiters)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom<CsvDelimiter>(';', ','),
        (rows, d) => {
          const text = rows.map((r) => csvLine(r, d)).join('')
          const back = parse(text, d).map((r) => r.map(unneutralise))
          expect(back).toEqual(rows)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses the ways a damaged file shows', () => {
    expect(() => parse('a;"b\r\n', ';')).toThrow(CsvSyntaxError)
    expect(() => parse('a;b"c\r\n', ';')).toThrow(/quote inside/)
    expect(() => parse('"a"b;c\r\n', ';')).toThrow(/after a closing quote/)
    expect(() => parse('a\rb\r\n', ';')).toThrow(/CR without LF/)
  })

  it('counts lines across quoted line breaks', () => {
    const lines: number[] = []
    parseCsv(Buffer.from('h\r\n"a\nb"\r\nc\r\n'), ';', (row) => lines.push(row.line))
    expect(lines).toEqual([1, 2, 4])
  })
})

describe('columns', () => {
  it('headers: ids in en, labels in pt-BR, unique', () => {
    expect(csvHeader('en')).toEqual(CSV_COLUMNS.map((c) => c.id))
    expect(new Set(csvHeader('pt-BR')).size).toBe(CSV_COLUMNS.length)
    // pt-BR headers are words, not API field names or retired terms; older exports' header has every column.
    for (const h of csvHeader('pt-BR'))
      expect(h).not.toMatch(/messageCode|denialCode|X-Request-ID|saque|Status|Recebedor|\bTx\b/)
    // Issue #14 appended columns; the older headers have the columns before them, in the same order.
    expect(PT_HEADER_V1.length).toBe(COLUMNS_BEFORE_REFERENCES)
    expect(LEGACY_CSV_COLUMNS.slice(COLUMNS_BEFORE_REFERENCES).map((c) => c.id)).toEqual([
      'invoice',
      'cost_centre',
      'category',
      'note',
      'payee_id',
      'payee_name',
      'payee_tax_number',
      'payee_check',
    ])
    // Issue #26: a person's columns first (date, payee, CPF/CNPJ, R$, status in words, references), every
    // earlier column kept after them for scripts, and the codes after the words.
    expect(CSV_COLUMNS.slice(0, 11).map((c) => c.id)).toEqual([
      'transfer_date',
      'created_at',
      'payee',
      'tax_number',
      'payout_amount',
      'status_text',
      'invoice',
      'cost_centre',
      'run',
      'category',
      'note',
    ])
    expect(CSV_COLUMNS.map((c) => c.id).sort()).toEqual(
      [...LEGACY_CSV_COLUMNS.map((c) => c.id), 'payee', 'status_text', 'run', 'run_id'].sort(),
    )
    // The run's id is a code for scripts: last. The people's order before the Lote is the same less both.
    expect(CSV_COLUMNS.at(-1)?.id).toBe('run_id')
    expect(PEOPLE_V1_CSV_COLUMNS.map((c) => c.id)).toEqual(
      CSV_COLUMNS.map((c) => c.id).filter((id) => id !== 'run' && id !== 'run_id'),
    )
    const ids = CSV_COLUMNS.map((c) => c.id)
    for (const code of ['local_id', 'status', 'local_state', 'remote_status', 'refund_reason', 'error_kind'])
      expect(ids.indexOf(code)).toBeGreaterThan(ids.indexOf('status_text'))
    expect(new Set(csvHeader('en')).size).toBe(CSV_COLUMNS.length)
  })
})

describe('deposit columns', () => {
  it("a person's columns first (date, payer, CPF/CNPJ, R$, status in words), every earlier column after", () => {
    expect(DEPOSIT_CSV_COLUMNS.slice(0, 6).map((c) => c.id)).toEqual([
      'created_at',
      'payer_name',
      'payer_tax_number',
      'amount',
      'status_text',
      'depix_address',
    ])
    const ids = DEPOSIT_CSV_COLUMNS.map((c) => c.id)
    expect([...ids].sort()).toEqual([...LEGACY_DEPOSIT_CSV_COLUMNS.map((c) => c.id), 'status_text'].sort())
    // The rest keep their earlier order, codes after the words.
    expect(ids.slice(6)).toEqual(
      LEGACY_DEPOSIT_CSV_COLUMNS.map((c) => c.id).filter((id) => !ids.slice(0, 6).includes(id)),
    )
    for (const code of ['local_id', 'origin', 'status', 'local_state', 'remote_status', 'error_kind'])
      expect(ids.indexOf(code)).toBeGreaterThan(ids.indexOf('status_text'))
    expect(new Set(csvHeader('pt-BR', DEPOSIT_CSV_COLUMNS)).size).toBe(DEPOSIT_CSV_COLUMNS.length)
    // The earlier order (ids first) is what older deposit exports have: the verifier recognises it.
    expect(LEGACY_DEPOSIT_CSV_COLUMNS[0]?.id).toBe('local_id')
  })

  it.each([
    ['## records.csv', CSV_COLUMNS],
    ['## Deposit exports', DEPOSIT_CSV_COLUMNS],
  ] as const)(
    "docs/RECORDS.md (%s) lists the CSV columns in the file's order, with their pt-BR headers",
    (heading, columns) => {
      const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/RECORDS.md'), 'utf8')
      const section = doc.slice(doc.indexOf(heading))
      const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| id')))
      const listed = [...table.matchAll(/^\| `([a-z_]+)` +\| ([^|]+?) +\|/gm)].map((m) => [m[1], m[2]])
      expect(listed).toEqual(columns.map((c: { id: string; pt: string }) => [c.id, c.pt]))
    },
  )
})
