/**
 * Issue #27: writes the wallet statement's members (wallet-statement.ts, wallet-statement-html.ts) into an export
 * through the export's own hashed writer.
 */
import type { CsvDelimiter } from './csv'
import type { ExportLocale } from './format'
import {
  WALLET_STATEMENT_CSV,
  WALLET_STATEMENT_FILE,
  WALLET_STATEMENT_HTML,
  walletStatementCsv,
  walletStatementJson,
  type WalletStatementFile,
} from './wallet-statement'
import { walletStatementHtml } from './wallet-statement-html'

/** The manifest entries of the statement's members (manifest.ts lists the same shapes; no import back). */
type StatementEntry =
  | { name: typeof WALLET_STATEMENT_FILE; format: 'wallet-statement'; bytes: number; sha256: string }
  | {
      name: typeof WALLET_STATEMENT_CSV
      format: 'wallet-statement-csv'
      bytes: number
      sha256: string
      delimiter: CsvDelimiter
      locale: ExportLocale
    }
  | {
      name: typeof WALLET_STATEMENT_HTML
      format: 'wallet-statement-html'
      bytes: number
      sha256: string
      locale: ExportLocale
    }

/**
 * Writes the statement's members through the export's own hashed writer (`track`): the JSON always, the CSV and the
 * HTML page when the export has those formats. Returns their manifest entries.
 */
export async function writeWalletStatementMembers(
  track: (
    name: string,
  ) => Promise<{ write(s: string): void; close(): Promise<{ bytes: number; sha256: string }> }>,
  f: WalletStatementFile,
  csv: { delimiter: CsvDelimiter; locale: ExportLocale } | null,
  html: { locale: ExportLocale } | null,
): Promise<StatementEntry[]> {
  const json = await track(WALLET_STATEMENT_FILE)
  json.write(walletStatementJson(f))
  const j = await json.close()
  const entries: StatementEntry[] = [{ name: WALLET_STATEMENT_FILE, format: 'wallet-statement', ...j }]
  if (csv) {
    const c = await track(WALLET_STATEMENT_CSV)
    c.write(walletStatementCsv(f, csv.delimiter, csv.locale))
    entries.push({ name: WALLET_STATEMENT_CSV, format: 'wallet-statement-csv', ...(await c.close()), ...csv })
  }
  if (html) {
    const h = await track(WALLET_STATEMENT_HTML)
    h.write(walletStatementHtml(f, html.locale))
    entries.push({
      name: WALLET_STATEMENT_HTML,
      format: 'wallet-statement-html',
      ...(await h.close()),
      ...html,
    })
  }
  return entries
}
