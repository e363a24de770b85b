/** Shared pieces of the run tests: valid identities, a payee book double, a validation context, XLSX builders. */
import ExcelJS from 'exceljs'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { PayeeLike, PayeeLookup, ValidateCtx } from '../../../src/main/runs/import'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

/** Receita Federal's published example CPFs/CNPJ with valid check digits. */
export const CPF = '52998224725'
export const CPF2 = '11144477735'
export const CNPJ = '11222333000181'

export const NETWORK = 'regtest' as const
export const REFUND = generateLiquidAddress(NETWORK).address
export const OTHER_NETWORK_ADDRESS = generateLiquidAddress('liquid').address

export class PayeeBook implements PayeeLookup {
  constructor(readonly payees: PayeeLike[]) {}
  byId(id: string): PayeeLike | null {
    return this.payees.find((p) => p.id === id) ?? null
  }
  byName(name: string): PayeeLike[] {
    const n = name.trim().toLowerCase()
    return this.payees.filter((p) => p.name.toLowerCase() === n)
  }
}

export function validateCtx(o: Partial<ValidateCtx> = {}): ValidateCtx {
  return {
    payees: new PayeeBook([]),
    network: NETWORK,
    profile: 'sandbox',
    defaultRefundAddress: REFUND,
    findRecentSimilar: (): WithdrawalRecord[] => [],
    now: () => Date.parse('2026-11-25T12:00:00Z'),
    ...o,
  }
}

export const HEADER_PT =
  'Favorecido;Chave Pix;Tipo da chave;CPF/CNPJ;EUID;Valor do Pix (R$);DePix a enviar;NF;Centro de custo;Categoria;Observação;Endereço de devolução'

/** A pt-BR CSV line in template order. */
export function lineOf(o: {
  payee?: string
  key?: string
  type?: string
  tax?: string
  payout?: string
  depix?: string
  nf?: string
  cc?: string
  cat?: string
  note?: string
  refund?: string
}): string {
  return [
    o.payee ?? '',
    o.key ?? '',
    o.type ?? '',
    o.tax ?? '',
    '',
    o.payout ?? '',
    o.depix ?? '',
    o.nf ?? '',
    o.cc ?? '',
    o.cat ?? '',
    o.note ?? '',
    o.refund ?? '',
  ].join(';')
}

export function csvBytes(lines: string[], o: { bom?: boolean; eol?: string } = {}): Uint8Array {
  const text = (o.bom ? '\uFEFF' : '') + lines.join(o.eol ?? '\r\n')
  return new TextEncoder().encode(text)
}

export async function xlsxBytes(
  rows: unknown[][],
  edit?: (ws: ExcelJS.Worksheet) => void,
): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Pagamentos')
  for (const r of rows) ws.addRow(r)
  edit?.(ws)
  const buf = await wb.xlsx.writeBuffer()
  return new Uint8Array(buf as ArrayBuffer)
}

/** n distinct valid e-mail Pix keys and payouts: a run of good rows. */
export function goodLines(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) =>
    lineOf({
      payee: `Fornecedor ${start + i}`,
      key: `fornecedor${start + i}@example.com`,
      tax: CPF,
      payout: `${100 + start + i},50`,
      nf: `NF-${start + i}`,
      cc: i % 2 === 0 ? 'Obras' : 'Administrativo',
      cat: 'Serviços',
    }),
  )
}
