/**
 * Payment runs (issue #15): many payments from one spreadsheet, created and funded in waves. Shared shapes only:
 * the columns of the import file, a row as imported, the problems found in it, and the run's states. Each row
 * becomes a `WithdrawalDraft` validated with the very schema of the single-payment form (withdrawal.ts).
 */
import { z } from 'zod'
import type { LocalizedText } from './pix-key'
import { withdrawalDraftSchema, type WithdrawalDraft } from './withdrawal'

/** The most rows one run takes (issue #15); a larger file is refused whole, never cut. */
export const RUN_MAX_ROWS = 1000
/** Bytes of an import file: larger files are refused unread. */
export const RUN_FILE_MAX_BYTES = 10 * 1024 * 1024

/** Columns of the import file, in template order. */
export const RUN_COLUMNS = [
  'payee',
  'pixKey',
  'pixKeyType',
  'taxNumber',
  'euid',
  'payoutBrl',
  'depositDepix',
  'invoice',
  'costCentre',
  'category',
  'note',
  'refundAddress',
] as const
export type RunColumn = (typeof RUN_COLUMNS)[number]

/** Template headers; the importer also accepts the other language's and a few aliases (import/columns.ts). */
export const RUN_HEADERS: Readonly<Record<'pt-BR' | 'en', Readonly<Record<RunColumn, string>>>> = {
  'pt-BR': {
    payee: 'Favorecido',
    pixKey: 'Chave Pix',
    pixKeyType: 'Tipo da chave',
    taxNumber: 'CPF/CNPJ',
    euid: 'EUID',
    payoutBrl: 'Valor do Pix (R$)',
    depositDepix: 'DePix a enviar',
    invoice: 'NF',
    costCentre: 'Centro de custo',
    category: 'Categoria',
    note: 'Observação',
    refundAddress: 'Endereço de devolução',
  },
  en: {
    payee: 'Payee',
    pixKey: 'Pix key',
    pixKeyType: 'Pix key type',
    taxNumber: 'CPF/CNPJ',
    euid: 'EUID',
    payoutBrl: 'Payout (R$)',
    depositDepix: 'DePix to send',
    invoice: 'Invoice',
    costCentre: 'Cost centre',
    category: 'Category',
    note: 'Note',
    refundAddress: 'Refund address',
  },
}

/** One problem of the file (line 0 / column null) or of one cell. */
export const runIssueSchema = z.object({
  /** Line as the spreadsheet numbers it (header = 1); 0 for the file as a whole. */
  line: z.number().int().nonnegative(),
  /** The column as the file names it (its header text), or null for the row / file. */
  column: z.string().nullable(),
  field: z.enum(RUN_COLUMNS).nullable(),
  /** Stable code; `message` is its translation. */
  code: z.string(),
  message: z.object({ 'pt-BR': z.string(), en: z.string() }),
})
export type RunIssue = z.infer<typeof runIssueSchema>

/** Why a row might be a duplicate; the operator decides (keep or drop) before approval. */
export const duplicateSchema = z.object({
  /** Other lines of this file with the same Pix key and amount. */
  lines: z.array(z.number().int()),
  /** Local ids of recent payments in the ledger with the same Pix key and amount (the create's guard query). */
  ledger: z.array(z.string()),
})
export type RunDuplicate = z.infer<typeof duplicateSchema>

export const payeeMatchSchema = z.object({
  /** How the payee cell matched the payee book. */
  kind: z.enum(['id', 'name', 'none', 'ambiguous', 'blank']),
  payeeId: z.string().nullable(),
  name: z.string().nullable(),
})
export type PayeeMatch = z.infer<typeof payeeMatchSchema>

/** A good row, as imported. `draft` satisfies `withdrawalDraftSchema`. */
export const importedRowSchema = z.object({
  line: z.number().int().positive(),
  draft: withdrawalDraftSchema,
  payee: payeeMatchSchema,
  /** Whether the refund address came from the profile's default (the cell was blank). */
  refundFromProfile: z.boolean(),
  duplicate: duplicateSchema.nullable(),
  /** Notes that do not stop the row (e.g. a Pix key that differs from the payee book's). */
  warnings: z.array(runIssueSchema),
})
export type ImportedRow = z.infer<typeof importedRowSchema> & { draft: WithdrawalDraft }

export const RUN_STATES = [
  /** Imported; rows may still change; not approved. */
  'draft',
  /** Approved: the approval names the exact rows (hash). */
  'approved',
  /** Creating a wave now. */
  'creating',
  /** A wave is created and waits for the operator's deposit. */
  'awaiting_funding',
  /** The operator stopped creation (pause, or the app stopped mid-wave); "resume" continues. */
  'paused',
  /** Every row not dropped was created at the service and its wave funded. */
  'completed',
  /**
   * No row waits for a wave, but some were not created (refused, outcome unknown, held): they can be resolved or
   * retried from the run page (issue #25); never shown as "completed".
   */
  'partially_paid',
  /** No new creates; created rows stay tracked. */
  'cancelled',
] as const
export type RunState = (typeof RUN_STATES)[number]

export const RUN_ROW_STATES = [
  /** Waiting for a wave. */
  'pending',
  /** Picked for the current wave, not yet sent. */
  'queued',
  /** Journaled for create: its withdrawal record (local id) exists or is about to; the POST may be in flight. */
  'in_flight',
  /** The create ended: see the withdrawal record (created, rejected or outcome_unknown). */
  'submitted',
  /** Refused before anything was journaled (e.g. a similar payment appeared after approval); nothing sent. */
  'held',
  /** The operator dropped it (duplicate decision) or the run was cancelled before it was sent. */
  'dropped',
] as const
export type RunRowState = (typeof RUN_ROW_STATES)[number]

export const runMessages = {
  file_too_large: {
    'pt-BR': 'O arquivo tem mais de 10 MB. Divida a planilha em arquivos menores.',
    en: 'The file is larger than 10 MB. Split the spreadsheet into smaller files.',
  },
  file_empty: { 'pt-BR': 'O arquivo está vazio.', en: 'The file is empty.' },
  file_unreadable: {
    'pt-BR': 'O arquivo não pôde ser lido: ele não existe ou não é um arquivo comum.',
    en: 'The file could not be read: it does not exist or is not a regular file.',
  },
  not_utf8: {
    'pt-BR':
      'O arquivo não está em UTF-8 nem no CSV comum do Excel (Windows-1252). No Excel, use "Salvar como" › "CSV UTF-8 (delimitado por vírgulas)".',
    en: 'The file is neither UTF-8 nor Excel\'s plain CSV (Windows-1252). In Excel, use "Save as" › "CSV UTF-8 (comma delimited)".',
  },
  utf16: {
    'pt-BR': 'O arquivo está em UTF-16. Salve como "CSV UTF-8" e importe de novo.',
    en: 'The file is UTF-16. Save it as "CSV UTF-8" and import it again.',
  },
  binary: {
    'pt-BR': 'O arquivo não é uma planilha CSV nem XLSX.',
    en: 'The file is neither a CSV nor an XLSX spreadsheet.',
  },
  old_xls: {
    'pt-BR': 'Planilhas .xls (Excel 97–2003) não são aceitas. Salve como .xlsx ou CSV UTF-8.',
    en: 'Excel 97–2003 .xls files are not accepted. Save as .xlsx or CSV UTF-8.',
  },
  too_many_rows: {
    'pt-BR': 'A planilha tem mais de 1.000 linhas de pagamentos. Divida-a em mais de um lote.',
    en: 'The spreadsheet has more than 1,000 payment rows. Split it into more than one run.',
  },
  no_rows: { 'pt-BR': 'A planilha não tem nenhum pagamento.', en: 'The spreadsheet has no payments.' },
  unclosed_quote: {
    'pt-BR': 'Aspas abertas e não fechadas a partir desta linha.',
    en: 'A quote opened on this line is never closed.',
  },
  too_many_columns: {
    'pt-BR': 'Linha com colunas demais (máximo 40).',
    en: 'Line with too many columns (at most 40).',
  },
  cell_too_long: {
    'pt-BR': 'Célula longa demais (máximo 1.000 caracteres).',
    en: 'Cell too long (at most 1,000 characters).',
  },
  unknown_column: {
    'pt-BR': 'Coluna desconhecida. Use os títulos do modelo.',
    en: 'Unknown column. Use the template headers.',
  },
  repeated_column: { 'pt-BR': 'Coluna repetida.', en: 'Repeated column.' },
  missing_pix_key_column: {
    'pt-BR': 'Falta a coluna "Chave Pix" (ou "Favorecido" com o código do cadastro).',
    en: 'The "Pix key" column is missing (or "Payee" with the payee book id).',
  },
  missing_amount_column: {
    'pt-BR': 'Falta a coluna de valor: "Valor do Pix (R$)" ou "DePix a enviar".',
    en: 'The amount column is missing: "Payout (R$)" or "DePix to send".',
  },
  formula: {
    'pt-BR': 'Fórmulas não são aceitas: copie e cole como valores.',
    en: 'Formulas are not accepted: copy and paste as values.',
  },
  formula_like: {
    'pt-BR':
      'O texto é uma fórmula de planilha (começa com = ou com +, - ou @ seguido de uma função). Digite o valor em si, sem fórmula.',
    en: 'The text is a spreadsheet formula (it starts with =, or with +, - or @ followed by a function). Type the value itself, without a formula.',
  },
  hidden_characters: {
    'pt-BR':
      'a célula tem caracteres invisíveis, de controle (quebra de linha, tabulação) ou que invertem a direção do texto, e eles podem fazer o texto parecer outro. Apague a célula e digite o texto de novo.',
    en: 'the cell has invisible or control characters (line break, tab) or characters that reverse the direction of the text, which can make it read as something else. Clear the cell and type the text again.',
  },
  hidden_sheets: {
    'pt-BR':
      'A planilha tem abas ocultas ({cells}): o que não se vê não é importado. Reexiba-as e exclua as que não são do lote, ou copie o lote para uma planilha nova.',
    en: 'The workbook has hidden sheets ({cells}): what is not seen is not imported. Unhide them and delete those that are not part of the run, or copy the run into a new workbook.',
  },
  hidden_rows: {
    'pt-BR':
      'A planilha tem linhas ocultas ou filtradas com conteúdo (linhas {cells}): o que não se vê não é importado. Reexiba as linhas (ou limpe o filtro), confira-as e importe de novo.',
    en: 'The spreadsheet has hidden or filtered-out rows with content (rows {cells}): what is not seen is not imported. Unhide the rows (or clear the filter), check them and import again.',
  },
  hidden_columns: {
    'pt-BR':
      'A planilha tem colunas ocultas com conteúdo (colunas {cells}): o que não se vê não é importado. Reexiba as colunas, confira-as e importe de novo.',
    en: 'The spreadsheet has hidden columns with content (columns {cells}): what is not seen is not imported. Unhide the columns, check them and import again.',
  },
  amount_custom_format: {
    'pt-BR':
      'Células de valor com formato de número personalizado ({cells}) podem mostrar um valor diferente do que contêm. Aplique o formato "Número" ou "Moeda" com 2 casas decimais a essas células e importe de novo.',
    en: 'Amount cells with a custom number format ({cells}) may show a value other than the one they hold. Apply the "Number" or "Currency" format with 2 decimals to those cells and import again.',
  },
  merged_cells: {
    'pt-BR': 'A planilha tem células mescladas. Desfaça a mesclagem e importe de novo.',
    en: 'The spreadsheet has merged cells. Unmerge them and import again.',
  },
  xlsx_unreadable: {
    'pt-BR': 'Não foi possível ler este arquivo XLSX. Salve-o de novo no Excel ou como CSV UTF-8.',
    en: 'This XLSX file could not be read. Save it again in Excel or as CSV UTF-8.',
  },
  xlsx_too_big: {
    'pt-BR': 'O conteúdo do arquivo XLSX é grande demais para uma planilha de até 1.000 pagamentos.',
    en: 'The XLSX content is too large for a spreadsheet of up to 1,000 payments.',
  },
  xlsx_timeout: {
    'pt-BR': 'A leitura do arquivo XLSX demorou demais e foi interrompida. Salve como CSV UTF-8.',
    en: 'Reading the XLSX file took too long and was stopped. Save it as CSV UTF-8.',
  },
  xlsx_encrypted: {
    'pt-BR': 'O arquivo XLSX está protegido por senha.',
    en: 'The XLSX file is password protected.',
  },
  cell_date: {
    'pt-BR': 'Data onde se espera texto ou valor.',
    en: 'A date where text or an amount is expected.',
  },
  cell_error: {
    'pt-BR': 'Célula com erro da planilha (#N/D, #REF!…).',
    en: 'Cell with a spreadsheet error.',
  },
  cell_boolean: { 'pt-BR': 'Valor verdadeiro/falso não esperado.', en: 'Unexpected true/false value.' },
  amount_format: {
    'pt-BR': 'Valor ilegível. Use vírgula decimal: 1.234,56.',
    en: 'Unreadable amount. Use a decimal comma: 1.234,56.',
  },
  depix_format: {
    'pt-BR': 'Valor em DePix ilegível. Use 1.234,56 ou 1234.56000000 (8 casas).',
    en: 'Unreadable DePix amount. Use 1.234,56 or 1234.56000000 (8 decimals).',
  },
  amount_both: {
    'pt-BR': 'Informe só um valor por linha: "Valor do Pix" ou "DePix a enviar".',
    en: 'Give one amount per line: "Payout" or "DePix to send".',
  },
  amount_missing: {
    'pt-BR': 'Informe o valor: "Valor do Pix" ou "DePix a enviar".',
    en: 'Enter the amount: "Payout" or "DePix to send".',
  },
  pix_key_type_unknown: {
    'pt-BR': 'Tipo de chave desconhecido: use CPF, CNPJ, e-mail, celular ou aleatória.',
    en: 'Unknown key type: use CPF, CNPJ, email, phone or random.',
  },
  payee_not_found: {
    'pt-BR': 'Favorecido não encontrado no cadastro e a linha não tem chave Pix.',
    en: 'Payee not in the payee book and the line has no Pix key.',
  },
  payee_ambiguous: {
    'pt-BR': 'Há mais de um favorecido com este nome no cadastro: use o código do cadastro.',
    en: 'More than one payee has this name in the payee book: use the payee id.',
  },
  payee_key_differs: {
    'pt-BR': 'A chave Pix difere da cadastrada para este favorecido.',
    en: 'The Pix key differs from the one in the payee book for this payee.',
  },
  refund_address_missing: {
    'pt-BR': 'Sem endereço de devolução: preencha a coluna ou defina o endereço padrão do perfil.',
    en: 'No refund address: fill in the column or set the profile’s default address.',
  },
  refund_address_liquid: {
    'pt-BR': 'Endereço de devolução recusado pela verificação Liquid.',
    en: 'Refund address refused by the Liquid check.',
  },
} as const satisfies Record<string, LocalizedText>
export type RunMessageCode = keyof typeof runMessages

/** Where a run row stands for the operator: its own state, then its withdrawal's (src/main/runs/outcome.ts). */
export const ROW_OUTCOMES = [
  'pending',
  'queued',
  'in_flight',
  'held',
  'dropped',
  'rejected',
  'outcome_unknown',
  'not_created',
  'created',
  'funded',
  'paid',
  'returned',
  'expired',
  'failed',
  'cancelled',
] as const
export type RowOutcome = (typeof ROW_OUTCOMES)[number]

export const ROW_DECISIONS = ['keep', 'drop'] as const
export type RowDecision = (typeof ROW_DECISIONS)[number]

/** A run as the ledger keeps it (migration 9). */
export const runRecordSchema = z.object({
  runId: z.string(),
  profile: z.string(),
  operator: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: z.enum(RUN_STATES),
  /** SHA-256 of the canonical rows the approval named; null while not approved (or after a row changed). */
  approvedHash: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  /** Number of the latest wave (0: none yet). */
  wave: z.number().int().nonnegative(),
  rowCount: z.number().int().nonnegative(),
})
export type RunRecord = z.infer<typeof runRecordSchema>

export const runRowRecordSchema = z.object({
  runId: z.string(),
  idx: z.number().int().nonnegative(),
  line: z.number().int().positive(),
  draft: withdrawalDraftSchema,
  payee: payeeMatchSchema,
  duplicate: duplicateSchema.nullable(),
  decision: z.enum(ROW_DECISIONS).nullable(),
  state: z.enum(RUN_ROW_STATES),
  wave: z.number().int().positive().nullable(),
  /** The withdrawal record of this row, set (and committed) before its create is called. */
  localId: z.string().nullable(),
  /** Why the row is held (a refusal before anything was sent), as a stable code. */
  heldReason: z.string().nullable(),
})
export type RunRowRecord = z.infer<typeof runRowRecordSchema> & { draft: WithdrawalDraft }

export const runWaveSchema = z.object({
  runId: z.string(),
  wave: z.number().int().positive(),
  planned: z.number().int().positive(),
  startedAt: z.string(),
  fundedAt: z.string().nullable(),
  fundingTxId: z.string().nullable(),
})
export type RunWave = z.infer<typeof runWaveSchema>
