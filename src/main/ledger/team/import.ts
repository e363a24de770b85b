/**
 * Moving a desk's SQLite ledger into the team ledger. Idempotent: a record already imported from the same desk
 * ledger is skipped, so an interrupted import is simply run again. Local ids are kept (the journal, exports and
 * support tickets name them), status history comes along as it was (observations with their original times), and
 * each record's desk audit entries travel inside its `withdrawal.imported` entry, hashes included, so the desk's
 * trail stays checkable; a `ledger.imported` entry anchors the desk's chain head.
 *
 * Refused: a desk ledger whose own chain does not verify, and one still holding an unfinished create of either kind
 * (run its recovery first: the answer of that POST is unknown and must be resolved on the desk that sent it).
 * Top-ups come along by the same rules (kind-import.ts); the payee book, payment runs and stored receipts
 * after them (desk-import.ts), a run only in a state that cannot send.
 */
import path from 'node:path'
import type { AuditEntry } from '../../../shared/withdrawal-record'
import { LedgerError, SYSTEM_OPERATOR, type Ledger } from '../sqlite'
import { appendAudit } from '../pg/audit'
import { DEPOSIT_KIND, WITHDRAWAL_KIND } from '../model/kinds'
import { writeDeposit } from '../pg/deposit-lifecycle'
import { importDeskRest, unsendableRunsCheck, type RestImportResult } from './desk-import'
import { importKind, type KindImportResult } from './kind-import'
import { writeRecord } from '../pg/record-write'
import { withTx } from '../pg/tx'
import type pg from 'pg'

export interface ImportResult {
  origin: string
  imported: number
  /** Already imported from this desk ledger. */
  skipped: number
  /** Local ids already in the team ledger from somewhere else: left as they are, listed for the operator. */
  conflicts: string[]
  /** The desk's top-ups, by the same rules (kind-import.ts). */
  deposits: KindImportResult
  /** The payee book, payment runs and stored receipts (desk-import.ts). */
  rest: RestImportResult
}

function deskHistory(desk: Ledger, localId: string): AuditEntry[] {
  const rows: AuditEntry[] = []
  for (let offset = 0; ; offset += 1000) {
    const page = desk.audit({ subject: localId, limit: 1000, offset })
    rows.push(...page.rows)
    if (rows.length >= page.total || page.rows.length === 0) break
  }
  return rows.reverse()
}

export async function importDeskLedger(pool: pg.Pool, desk: Ledger, operator: string): Promise<ImportResult> {
  const check = desk.verifyAuditChain()
  if (!check.ok) {
    throw new LedgerError(
      'invalid_input',
      `desk ledger chain is broken at ${check.brokenAt}: ${check.reason}`,
      {
        'pt-BR': `A trilha de auditoria do livro-caixa desta estação está quebrada (entrada ${check.brokenAt}); ele não é importado.`,
        en: `This desk ledger's audit trail is broken (entry ${check.brokenAt}); it is not imported.`,
      },
    )
  }
  if (
    desk.query({ statuses: ['submitting'], limit: 1 }).total > 0 ||
    desk.deposits.query({ statuses: ['submitting'], limit: 1 }).total > 0
  ) {
    throw new LedgerError('invalid_input', 'desk ledger has unfinished creates', {
      'pt-BR':
        'Há pagamentos em envio neste livro-caixa: reinicie o aplicativo (a recuperação os marca como resultado desconhecido) e resolva-os antes de importar.',
      en: 'This ledger has payments still being submitted: restart the app (recovery marks them outcome unknown) and resolve them before importing.',
    })
  }
  unsendableRunsCheck(desk)
  const origin = `${desk.ledgerId}:${path.basename(desk.file)}`
  const history = (id: string): AuditEntry[] => deskHistory(desk, id)
  const withdrawals = await importKind(
    pool,
    {
      rules: WITHDRAWAL_KIND,
      records: desk.iterate({ sort: { field: 'createdAt', dir: 'asc' } }),
      observations: (id) => desk.observations(id),
      write: (tx, rec, audit, from) => writeRecord(tx, null, rec, audit, { importedFrom: from }),
    },
    operator,
    origin,
    history,
  )
  const deposits = await importKind(
    pool,
    {
      rules: DEPOSIT_KIND,
      records: desk.deposits.iterate({ sort: { field: 'createdAt', dir: 'asc' } }),
      observations: (id) => desk.deposits.observations(id),
      write: (tx, rec, audit, from) => writeDeposit(tx, null, rec, audit, from),
    },
    operator,
    origin,
    history,
  )
  const result: ImportResult = {
    origin,
    ...withdrawals,
    deposits,
    rest: await importDeskRest(pool, desk, operator, origin, history),
  }
  const { payees, runs, receipts } = result.rest
  const rest = payees.imported + runs.imported + receipts.imported
  if (result.imported > 0 || result.deposits.imported > 0 || rest > 0) {
    await withTx(pool, (tx) =>
      appendAudit(tx.c, tx.identity, {
        operator: operator || SYSTEM_OPERATOR,
        action: 'ledger.imported',
        details: {
          origin,
          deskHead: desk.auditHead(),
          imported: result.imported,
          skipped: result.skipped,
          // Only when the desk had top-ups: a withdrawals-only import keeps the summary it always had.
          ...(deposits.imported + deposits.skipped > 0
            ? { depositsImported: deposits.imported, depositsSkipped: deposits.skipped }
            : {}),
          ...(rest > 0
            ? {
                payeesImported: payees.imported,
                runsImported: runs.imported,
                receiptsImported: receipts.imported,
              }
            : {}),
        },
      }),
    )
  }
  return result
}
