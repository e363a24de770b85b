/**
 * The downloadable template: the header line only (an example row could be imported by mistake and pay a
 * stranger), UTF-8 with BOM so Excel reads the accents, `;` for pt-BR Excel and `,` for English.
 */
import { RUN_COLUMNS, RUN_HEADERS } from '../../../shared/run'

export function runTemplateCsv(locale: 'pt-BR' | 'en'): string {
  const sep = locale === 'pt-BR' ? ';' : ','
  return `\uFEFF${RUN_COLUMNS.map((c) => RUN_HEADERS[locale][c]).join(sep)}\r\n`
}
