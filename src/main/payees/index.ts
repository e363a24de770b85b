/** The payee book (favorecidos): service, CSV in and out. See service.ts. */
export {
  createPayeeBook,
  PayeeError,
  payeeStateHash,
  payeeSubject,
  PAYEE_PAGE_MAX,
  type PayeeBook,
  type PayeeErrorCode,
} from './service'
export {
  importPayeesCsv,
  parsePayeesCsv,
  payeesCsv,
  PayeeImportError,
  PAYEES_CSV_MAX_BYTES,
  PAYEES_CSV_MAX_ROWS,
  type ImportProblem,
  type PayeeImportResult,
} from './csv'
