/**
 * Issue #27: writes the wallet statement's members (wallet-statement.ts, wallet-statement-html.ts) into an export
 * through the export's own hashed writer (`track`): the JSON always, the CSV and the HTML page when the export has
 * those formats. Returns their manifest entries.
 */
import type { CsvDelimiter } from './csv'
import type { ExportLocale } from './format'
import type { FileEntry } from './manifest'
import type { HashedFile, WrittenFile } from './writer'
import {
  WALLET_STATEMENT_CSV,
  WALLET_STATEMENT_FILE,
  WALLET_STATEMENT_HTML,
  walletStatementCsv,
  walletStatementJson,
  type WalletStatementFile,
} from './wallet-statement'
import { walletStatementHtml } from './wallet-statement-html'

export async function writeWalletStatementMembers(
  track: (name: string) => Promise<HashedFile>,
  f: WalletStatementFile,
  csv: { delimiter: CsvDelimiter; locale: ExportLocale } | null,
  html: { locale: ExportLocale } | null,
): Promise<FileEntry[]> {
  const written = async (name: string, text: string): Promise<WrittenFile> => {
    const file = await track(name)
    file.write(text)
    return file.close()
  }
  const entries: FileEntry[] = [
    {
      name: WALLET_STATEMENT_FILE,
      format: 'wallet-statement',
      ...(await written(WALLET_STATEMENT_FILE, walletStatementJson(f))),
    },
  ]
  if (csv) {
    const text = walletStatementCsv(f, csv.delimiter, csv.locale)
    const file = await written(WALLET_STATEMENT_CSV, text)
    entries.push({ name: WALLET_STATEMENT_CSV, format: 'wallet-statement-csv', ...file, ...csv })
  }
  if (html) {
    const file = await written(WALLET_STATEMENT_HTML, walletStatementHtml(f, html.locale))
    entries.push({ name: WALLET_STATEMENT_HTML, format: 'wallet-statement-html', ...file, ...html })
  }
  return entries
}
