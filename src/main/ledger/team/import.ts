/**
 * Moving a desk's SQLite ledger into the team ledger. Idempotent: a record already imported from the same desk
 * ledger is skipped, so an interrupted import is simply run again. Local ids are kept (the journal, exports and
 * support tickets name them), status history comes along as it was (observations with their original times), and
 * each record's desk audit entries travel inside its `withdrawal.imported` entry, hashes included, so the desk's
 * trail stays checkable; a `ledger.imported` entry anchors the desk's chain head.
 *
 * Refused: a desk ledger whose own chain does not verify, and one still holding an unfinished create of either kind
 * (run its recovery first: the answer of that POST is unknown and must be resolved on the desk that sent it).
 * Top-ups come along by the same rules (deposit-import.ts); the payee book, payment runs and stored receipts
 * after them (desk-import.ts), a run only in a state that cannot send.
 */
import path from 'node:path'
import type { AuditEntry, WithdrawalRecord } from '../../../shared/withdrawal-record'
import { LedgerError, SYSTEM_OPERATOR, type Ledger } from '../sqlite'
import { appendAudit } from '../pg/audit'
import { insertObservation } from '../pg/observation-rows'
import { hasUnfinishedDeposit, importDeskDeposits, type DepositImportResult } from './deposit-import'
import {
  importDeskRest,
  importedOrigins,
  lockOrigin,
  unsendableRunsCheck,
  type RestImportResult,
} from './desk-import'
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
  /** The desk's top-ups, by the same rules (deposit-import.ts). */
  deposits: DepositImportResult
  /** The payee book, payment runs and stored receipts (desk-import.ts). */
  rest: RestImportResult
}

const BATCH = 100

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
  if (desk.query({ statuses: ['submitting'], limit: 1 }).total > 0 || hasUnfinishedDeposit(desk)) {
    throw new LedgerError('invalid_input', 'desk ledger has unfinished creates', {
      'pt-BR':
        'Há pagamentos em envio neste livro-caixa: reinicie o aplicativo (a recuperação os marca como resultado desconhecido) e resolva-os antes de importar.',
      en: 'This ledger has payments still being submitted: restart the app (recovery marks them outcome unknown) and resolve them before importing.',
    })
  }
  unsendableRunsCheck(desk)
  const origin = `${desk.ledgerId}:${path.basename(desk.file)}`
  const result: ImportResult = {
    origin,
    imported: 0,
    skipped: 0,
    conflicts: [],
    deposits: { imported: 0, skipped: 0, conflicts: [] },
    rest: {
      payees: { imported: 0, skipped: 0, conflicts: [] },
      runs: { imported: 0, skipped: 0, conflicts: [] },
      receipts: { imported: 0, skipped: 0, conflicts: [], unreadable: [] },
    },
  }
  let batch: WithdrawalRecord[] = []
  const flush = async (): Promise<void> => {
    const records = batch
    batch = []
    if (records.length === 0) return
    await withTx(pool, async (tx) => {
      await lockOrigin(tx.c, origin)
      const there = await importedOrigins(
        tx.c,
        'withdrawals',
        records.map((r) => r.localId),
      )
      for (const rec of records) {
        if (there.has(rec.localId)) {
          if (there.get(rec.localId) === origin) result.skipped += 1
          else result.conflicts.push(rec.localId)
          continue
        }
        // The row and its audit entry (state hash computed by the database), then its status history.
        await writeRecord(
          tx,
          null,
          rec,
          {
            operator,
            action: 'withdrawal.imported',
            details: { origin, history: deskHistory(desk, rec.localId) },
          },
          { importedFrom: origin },
        )
        for (const o of desk.observations(rec.localId)) {
          await insertObservation(tx.c, 'observations', {
            localId: rec.localId,
            observedAt: o.observedAt,
            remoteStatus: o.remoteStatus,
            body: o.body,
            requestId: o.requestId,
            nonce: o.nonce,
            applied: o.applied,
          })
        }
        result.imported += 1
      }
    })
  }
  for (const rec of desk.iterate({ sort: { field: 'createdAt', dir: 'asc' } })) {
    batch.push(rec)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  result.deposits = await importDeskDeposits(pool, desk, operator, origin, (id) => deskHistory(desk, id))
  result.rest = await importDeskRest(pool, desk, operator, origin, (id) => deskHistory(desk, id))
  const { payees, runs, receipts } = result.rest
  const rest = payees.imported + runs.imported + receipts.imported
  if (result.imported > 0 || result.deposits.imported > 0 || rest > 0) {
    const deposits = result.deposits
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
