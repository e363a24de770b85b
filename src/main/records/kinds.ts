/**
 * The record kinds an export carries, and what each brings of its own: its record schema and JSON envelope name,
 * its CSV columns and report columns, how a record groups into totals, its status in words, and what never
 * changes after creation (for `--against`). Everything else of the records module — streaming, the cells'
 * formatting, hashing, the signed manifest, the audit member, verification, the review ledger — is one code path
 * for every kind. A manifest without `recordKind` is a withdrawal export (every export made before deposits).
 *
 * The kind's identity is shared/record-kinds.ts's id, not a name of this module's own: the ledger, journal,
 * tracker and totals key by the same id. This descriptor stays separate because what it carries (columns,
 * schemas, words) is the export's own and would drag records/ into every layer that only needs the id.
 */
import { createHash } from 'node:crypto'
import type { z } from 'zod'
import { depositRecordSchema, type DepositRecord, depositAmountOf } from '../../shared/deposit-record'
import { depositStatusInWords } from '../../shared/deposit-words'
import type { MoneyLocale } from '../../shared/money'
import type { RecordKindId } from '../../shared/record-kinds'
import { statusInWords } from '../../shared/status-words'
import { withdrawalRecordSchema, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { canonicalJson } from '../ledger/model/canonical-json'
import { recordFixedHash } from './audit-member'
import {
  CSV_AT,
  CSV_COLUMNS,
  csvHeader,
  earlierCsvHeaders,
  HTML_COLUMNS,
  type Column,
  type CsvAt,
} from './columns'
import {
  DEPOSIT_CSV_AT,
  DEPOSIT_CSV_COLUMNS,
  DEPOSIT_HTML_COLUMNS,
  depositStatusWords,
  displayStatusOf,
  LEGACY_DEPOSIT_CSV_AT,
  LEGACY_DEPOSIT_CSV_COLUMNS,
} from './deposit-columns'
import type { ExportLocale } from './format'
import { displayStatus, withdrawalTotalsRow, type TotalsRow } from './totals'

/** Any kind's record, as the shared code sees it. */
export interface AnyRecord {
  localId: string
  createdAt: string
  remoteCheckedAt: string | null
}

export interface RecordsKind<R extends AnyRecord = AnyRecord> {
  id: RecordKindId
  /** `schema` of records.json. */
  jsonSchema: string
  /** The record schema, strict: an unknown member in an export is an error. */
  recordSchema: z.ZodType<R>
  csvColumns: readonly Column<R>[]
  htmlColumns: readonly Column<R>[]
  /** Whether totals have a payout side (withdrawals: deposit and payout; deposits: the Pix amount only). */
  hasPayout: boolean
  /** How one record counts in the totals (display status, refund, amounts). */
  totalsRow(r: R): TotalsRow
  /** The report's status cell, in words. */
  statusWords(r: R, locale: MoneyLocale): string
  /** A display status (totals, filters) in words. */
  statusCodeWords(status: string, hasRefund: boolean, locale: MoneyLocale): string
  /** Hash of what never changes after the record is created: two exports differing here prove an edit. */
  fixedHash(r: R): string
  /** Where the verifier reads a CSV row's totals (columns.ts). */
  csvAt: CsvAt
  /**
   * The headers of this kind's exports made before today's order, in a language, each with where its totals are:
   * the verifier recognises a file by its header line and reads it in that order, so older exports still verify.
   */
  csvEarlier(locale: ExportLocale): readonly { header: string[]; at: CsvAt }[]
}

const sha = (v: unknown): string => createHash('sha256').update(canonicalJson(v), 'utf8').digest('hex')

export const WITHDRAWAL_KIND: RecordsKind<WithdrawalRecord> = {
  id: 'withdrawal',
  jsonSchema: 'tesouraria-depix/records',
  recordSchema: withdrawalRecordSchema.strict(),
  csvColumns: CSV_COLUMNS,
  htmlColumns: HTML_COLUMNS,
  hasPayout: true,
  totalsRow: withdrawalTotalsRow,
  statusWords: (r, locale) => statusInWords(displayStatus(r), r.refund !== null, locale),
  statusCodeWords: statusInWords,
  fixedHash: recordFixedHash,
  csvAt: CSV_AT,
  csvEarlier: earlierCsvHeaders,
}

export const DEPOSIT_KIND: RecordsKind<DepositRecord> = {
  id: 'deposit',
  jsonSchema: 'tesouraria-depix/deposits',
  recordSchema: depositRecordSchema.strict(),
  csvColumns: DEPOSIT_CSV_COLUMNS,
  htmlColumns: DEPOSIT_HTML_COLUMNS,
  hasPayout: false,
  totalsRow: (r) => ({
    status: displayStatusOf(r),
    // A MED reversal is the deposit's "returned": the CSV's `reversed` column, so the verifier can recount it.
    hasRefund: r.reversedAt !== null,
    depositCents: depositAmountOf(r),
    payoutCents: 0,
    refundFeeCents: 0,
  }),
  statusWords: depositStatusWords,
  statusCodeWords: (status, _refund, locale) => depositStatusInWords(status, locale),
  fixedHash: (r) =>
    sha([r.localId, r.profile, r.operator, r.createdAt, r.origin, r.request, r.amountCents, r.depixAddress]),
  csvAt: DEPOSIT_CSV_AT,
  csvEarlier: (locale) => [
    { header: csvHeader(locale, LEGACY_DEPOSIT_CSV_COLUMNS), at: LEGACY_DEPOSIT_CSV_AT },
  ],
}

/** Keyed by the one kind id (shared/record-kinds.ts): a kind added there without an export fails to compile. */
const BY_ID: Readonly<Record<RecordKindId, RecordsKind>> = {
  withdrawal: WITHDRAWAL_KIND as unknown as RecordsKind,
  deposit: DEPOSIT_KIND as unknown as RecordsKind,
}

/** A kind's export; no id is a withdrawal (exports made before deposits). */
export function recordsKind(id: RecordKindId | undefined): RecordsKind {
  return BY_ID[id ?? 'withdrawal']
}
