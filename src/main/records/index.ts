/**
 * Records: export (CSV, JSON, HTML report) with a signed manifest, verification, and offline review
 * (docs/adr/0014-signed-exports-verified-offline.md). Electron-free; formats and the manifest are documented in docs/RECORDS.md.
 */
export { exportRecords, ExportError, FILE_NAMES, type ExportOptions, type ExportResult } from './export'
export {
  verifyExport,
  type ExportVerification,
  type VerificationCheck,
  type VerificationProblem,
  type VerifyOptions,
} from './verify'
export { openReview, type Review } from './review'
export {
  generateSigningKeyPair,
  keyFingerprint,
  normalizeFingerprint,
  isFingerprint,
  SigningKeyError,
  type SigningKeyPair,
} from './sign'
export {
  canonicalManifestBytes,
  MANIFEST_FILE,
  MANIFEST_SCHEMA,
  type ExportFilter,
  type ExportFormat,
  type FileEntry,
  type Manifest,
} from './manifest'
export { RECORDS_SCHEMA, type ExportedRecord } from './json'
export type { ExportLocale } from './format'
export type { CsvDelimiter } from './csv'
