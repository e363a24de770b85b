/**
 * The rest of a desk ledger moved into the team ledger by `importDeskLedger` (import.ts), after its withdrawals
 * and top-ups: the payee book, the payment runs and the stored receipts. Same rules as the records: idempotent per
 * desk ledger (`imported_from`, or the stored hash for a receipt), desk ids kept, the desk's audit entries for each
 * subject carried inside its `*.imported_from_desk` entry, and anything the team already holds from elsewhere
 * listed as a conflict, never overwritten.
 *
 * Runs arrive only in a state that cannot send (the database enforces it too, migration-desk-import.ts): a desk's
 * draft or approved-but-not-started run becomes a team draft without approval (the team's four-eyes decides it,
 * and the importing role may not approve it), a completed or cancelled run stays final. A run with a wave open
 * (creating, awaiting funding, paused) or with a row queued or in flight refuses the whole import before anything
 * is written (`unsendableRunsCheck`): its wave is finished or cancelled on the desk that started it.
 */
import type pg from 'pg'
import type { AuditEntry } from '../../../shared/withdrawal-record'
import type { Payee } from '../../../shared/payee'
import type { RunRecord } from '../../../shared/run'
import { LedgerError, type Ledger } from '../sqlite'
import { rowSubject, runSubject } from '../sqlite/runs'
import { PayeeError, payeeSearchText, payeeSubject, summary, validated } from '../model/payees'
import { allPayees } from '../sqlite/payee-queries'
import { readReceiptFile, receiptsDir } from '../sqlite/receipt-files'
import { auditDetails } from '../pg/audit'
import { BOOK_LOCK, payeeWrite } from '../pg/payees'
import { pgReceipts } from '../pg/receipts'
import { toRow, toRun } from '../pg/run-store'
import { withTx, type Tx } from '../pg/tx'

export interface PartImportResult {
  imported: number
  skipped: number
  conflicts: string[]
}

export interface ReceiptImportResult extends PartImportResult {
  /** Stored on the desk but not importable: the file is missing, or its bytes differ from the hash recorded. */
  unreadable: string[]
}

export interface RestImportResult {
  payees: PartImportResult
  runs: PartImportResult
  receipts: ReceiptImportResult
}

type History = (subject: string) => AuditEntry[]

/**
 * Every transaction of one desk ledger's import takes this lock first: two desks importing the same file at once
 * take turns batch by batch, and the second finds the first's rows (skipped) instead of failing on a unique key.
 */
export async function lockOrigin(c: Tx['c'], origin: string): Promise<void> {
  await c.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 727016007))`, [origin])
}

/** Where the records with these local ids came from (null: made on the team), for the import's skip-or-conflict. */
export async function importedOrigins(
  c: Tx['c'],
  table: 'withdrawals' | 'deposits',
  localIds: readonly string[],
): Promise<Map<string, string | null>> {
  const r = await c.query(`SELECT local_id, imported_from FROM ${table} WHERE local_id = ANY($1::text[])`, [
    [...localIds],
  ])
  return new Map(r.rows.map((x) => [String(x.local_id), x.imported_from as string | null]))
}

// A partially paid run may reopen (a row retried, issue #25): it is finished or cancelled on its desk first.
const SENDING_RUN: readonly RunRecord['state'][] = [
  'creating',
  'awaiting_funding',
  'paused',
  'partially_paid',
]

/** Throws before anything is written when a desk run could send after the move (see the file comment). */
export function unsendableRunsCheck(desk: Ledger): void {
  for (const run of desk.runs.list()) {
    const open = SENDING_RUN.includes(run.state)
    const moving =
      !open && desk.runs.rows(run.runId).some((r) => r.state === 'queued' || r.state === 'in_flight')
    if (!open && !moving) continue
    throw new LedgerError('invalid_input', `desk run ${run.runId} is ${run.state} with a wave open`, {
      'pt-BR': `O lote "${run.name}" está em andamento neste livro-caixa (${run.state}): conclua-o ou cancele-o nesta estação antes de importar. Nada foi importado.`,
      en: `Run "${run.name}" is in progress in this ledger (${run.state}): finish or cancel it on this desk before importing. Nothing was imported.`,
    })
  }
}

async function importPayees(
  pool: pg.Pool,
  desk: Ledger,
  operator: string,
  origin: string,
  history: History,
): Promise<PartImportResult> {
  const result: PartImportResult = { imported: 0, skipped: 0, conflicts: [] }
  const payees = desk.read((db) => [...allPayees(db)])
  if (payees.length === 0) return result
  await withTx(pool, async (tx) => {
    await lockOrigin(tx.c, origin)
    // The book's one lock (pg/payees.ts): the "already taken" checks below see every entry committed before.
    await tx.c.query('SELECT pg_advisory_xact_lock($1)', [BOOK_LOCK])
    for (const p of payees) {
      const same = await tx.c.query('SELECT imported_from FROM payees WHERE id = $1', [p.id])
      if (same.rows[0]) {
        if (same.rows[0].imported_from === origin) result.skipped += 1
        else result.conflicts.push(p.id)
        continue
      }
      // The desk file is read like any input: an entry the book's own rules refuse is listed, not written.
      let fields: ReturnType<typeof validated>
      try {
        fields = validated({
          name: p.name,
          taxNumber: p.taxNumber,
          pixKeys: p.pixKeys,
          ...(p.euid !== undefined ? { euid: p.euid } : {}),
          ...(p.notes !== undefined ? { notes: p.notes } : {}),
        })
      } catch (e) {
        if (!(e instanceof PayeeError)) throw e
        result.conflicts.push(p.id)
        continue
      }
      // One owner per CPF/CNPJ and per Pix key across the team: a desk entry that would take one is left out.
      const taken = await tx.c.query(
        `SELECT 1 FROM payees WHERE tax_number = $1 AND removed_at IS NULL
         UNION ALL SELECT 1 FROM payee_keys WHERE key = ANY($2::text[]) LIMIT 1`,
        [fields.taxNumber, fields.pixKeys.map((k) => k.key)],
      )
      if (taken.rows.length > 0) {
        result.conflicts.push(p.id)
        continue
      }
      // Written and audited by the database (migration 16), with the state hash it computes.
      await payeeWrite(
        tx,
        {
          id: null,
          fields: JSON.stringify({
            id: p.id,
            name: fields.name,
            taxNumber: fields.taxNumber,
            pixKeys: fields.pixKeys.map((k) => ({ key: k.key, type: k.type })),
            euid: fields.euid ?? null,
            notes: fields.notes ?? null,
            searchText: payeeSearchText(fields),
            importedFrom: origin,
          }),
          expected: null,
          action: 'payee.imported_from_desk',
          details: auditDetails(tx.identity, {
            operator,
            details: {
              origin,
              ...summary({ id: p.id, ...fields } as Payee),
              history: history(payeeSubject(p.id)),
            },
          }),
        },
        fields,
      )
      result.imported += 1
    }
  })
  return result
}

async function importRuns(
  pool: pg.Pool,
  desk: Ledger,
  operator: string,
  origin: string,
  history: History,
): Promise<PartImportResult> {
  const result: PartImportResult = { imported: 0, skipped: 0, conflicts: [] }
  // Oldest first, one transaction per run: a run and its rows arrive together or not at all.
  for (const run of desk.runs.list().reverse()) {
    await withTx(pool, async (tx) => {
      await lockOrigin(tx.c, origin)
      const same = await tx.c.query('SELECT imported_from FROM runs WHERE run_id = $1', [run.runId])
      if (same.rows[0]) {
        if (same.rows[0].imported_from === origin) result.skipped += 1
        else result.conflicts.push(run.runId)
        return
      }
      // An approval given on a desk was under no team rule: the team decides it again.
      const state = run.state === 'approved' ? 'draft' : run.state
      // Written by the database with the state hash it computes (migration 16).
      const ins = await tx.c.query('SELECT * FROM run_insert($1, $2, $3)', [
        JSON.stringify({
          runId: run.runId,
          profile: run.profile,
          operator: run.operator,
          name: run.name,
          rowCount: run.rowCount,
          importedFrom: origin,
          state,
          wave: state === 'draft' ? 0 : run.wave,
          createdAt: run.createdAt,
        }),
        'run.imported_from_desk',
        auditDetails(tx.identity, {
          operator,
          details: {
            origin,
            deskState: run.state,
            state,
            rows: run.rowCount,
            waves: desk.runs.waves(run.runId),
            history: history(runSubject(run.runId)),
          },
        }),
      ])
      toRun(ins.rows[0] as Record<string, unknown>)
      for (const row of desk.runs.rows(run.runId)) {
        const r = await tx.c.query('SELECT * FROM run_row_insert($1, $2, $3)', [
          JSON.stringify({
            runId: row.runId,
            idx: row.idx,
            line: row.line,
            draft: row.draft,
            payee: row.payee,
            duplicate: row.duplicate ?? null,
            decision: row.decision,
            state: row.state,
            wave: row.wave,
            localId: row.localId,
            heldReason: row.heldReason,
          }),
          'run.row_imported_from_desk',
          auditDetails(tx.identity, {
            operator,
            details: { origin, history: history(rowSubject(row.runId, row.idx)) },
          }),
        ])
        toRow(r.rows[0] as Record<string, unknown>)
      }
      result.imported += 1
    })
  }
  return result
}

/**
 * Each stored receipt's bytes read from the desk's receipts folder, checked against the desk's row AND its
 * `receipt.stored` entry, then stored through the team's own path (pgReceipts): the database checks the hash
 * again, accepts only the URL the imported record carries, and audits the storing.
 */
async function importReceipts(pool: pg.Pool, desk: Ledger, origin: string): Promise<ReceiptImportResult> {
  const result: ReceiptImportResult = { imported: 0, skipped: 0, conflicts: [], unreadable: [] }
  const team = pgReceipts(pool)
  const dir = receiptsDir(desk.file)
  for (const receipt of desk.receipts.listStored()) {
    const { localId, sha256, mediaType } = receipt
    if (sha256 === null || mediaType === null) {
      result.unreadable.push(localId)
      continue
    }
    const there = await team.get(localId)
    // A pending row is fetched by nobody yet (the leader's, or this import's cut short): the desk's bytes may fill it.
    if (there !== null && there.state !== 'pending') {
      if (there.state === 'stored' && there.sha256 === sha256) result.skipped += 1
      else result.conflicts.push(localId)
      continue
    }
    const record = await pool.query('SELECT imported_from FROM withdrawals WHERE local_id = $1', [localId])
    if (record.rows[0]?.imported_from !== origin) {
      result.conflicts.push(localId)
      continue
    }
    const audited = desk
      .audit({ subject: localId, limit: 1000 })
      .rows.find((e) => e.action === 'receipt.stored')?.details as { sha256?: unknown } | undefined
    const file = readReceiptFile(dir, sha256, mediaType)
    if (!file.ok || audited?.sha256 !== sha256) {
      result.unreadable.push(localId)
      continue
    }
    try {
      if (there === null) await team.track(localId, receipt.url)
      if (await team.stored(localId, { bytes: file.bytes, sha256, mediaType })) result.imported += 1
      // Stored meanwhile (another import of this ledger, or the leader): the same bytes are the same receipt.
      else if ((await team.get(localId))?.sha256 === sha256) result.skipped += 1
      else result.conflicts.push(localId)
    } catch (e) {
      // The team refuses a URL other than the one its copy of the record carries (22023): listed, not fatal.
      if ((e as { code?: unknown }).code === '22023') result.conflicts.push(localId)
      else throw e
    }
  }
  return result
}

export async function importDeskRest(
  pool: pg.Pool,
  desk: Ledger,
  operator: string,
  origin: string,
  history: History,
): Promise<RestImportResult> {
  const payees = await importPayees(pool, desk, operator, origin, history)
  const runs = await importRuns(pool, desk, operator, origin, history)
  const receipts = await importReceipts(pool, desk, origin)
  return { payees, runs, receipts }
}
