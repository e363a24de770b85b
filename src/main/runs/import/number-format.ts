/**
 * Whether an XLSX number format shows an amount as the number it holds (issue #24). A custom format can make a
 * cell holding 100 read "5.000,00" (`"5.000,00"`), divide by a thousand (`#,##0.00,`), show another number under
 * a condition (`[>99]…`) or round away the cents (`#,##0` on 100,50). Accepted: General, and `0`, `0.0`, `0.00`,
 * `#,##0`, `#,##0.0`, `#,##0.00` with an optional currency (`[$R$-416]`, `"R$"`, `R$`), padding, fill and a colour,
 * showing at least as many decimals as the value has. Only the first section is read (amounts are positive:
 * negative and zero amounts are refused by validation anyway); no section may carry a condition.
 */

const SAFE = /^(?:0|#,##0)(?:\.(0{1,2}))?$/

export function plainAmountFormat(format: string, value: string): boolean {
  if (format === '' || format === 'General') return true
  if (/\[\s*[<>=]/.test(format)) return false
  const first = format.split(';')[0] ?? ''
  const core = first
    .replace(/\[\$[^\]]*\]/g, '') // currency and locale: [$R$-416]
    .replace(/\[(?:black|blue|cyan|green|magenta|red|white|yellow|color\s*\d+)\]/gi, '')
    .replace(/"R\$\s*"/g, '')
    .replace(/R\$/g, '')
    .replace(/[_*]./g, '') // padding and fill
    .replace(/\\ /g, '')
    .replace(/\s+/g, '')
  const m = SAFE.exec(core)
  if (!m) return false
  const shown = (m[1] ?? '').length
  const held = (value.split('.')[1] ?? '').length
  return held <= shown
}

/** 0-based column index → spreadsheet letters (0 → A, 26 → AA). */
export function columnLetters(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}
