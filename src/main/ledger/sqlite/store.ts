/**
 * The embedded engine behind the async interface: the existing synchronous `Ledger`, unchanged. Every call runs
 * to completion before its promise settles, so the duplicate guard's check-then-insert cannot interleave with
 * another create (one process owns the file, lock.ts).
 */
import type { Ledger } from './index'
import { TeamLedgerError } from '../team-errors'
import type { LedgerStore } from '../ports'

const UNSUPPORTED_APPROVAL = {
  'pt-BR': 'Aprovações existem só no livro-caixa da equipe.',
  en: 'Approvals exist only on the team ledger.',
}

/** Runs `fn` and turns a synchronous throw into a rejection, like an async engine. */
function later<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn())
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)))
  }
}

export function sqliteStore(
  ledger: Ledger,
  o: { identity?: string; closeLedger?: boolean } = {},
): LedgerStore {
  return {
    engine: 'sqlite',
    identity: o.identity ?? 'local',
    insertSubmitting: (input, operator) => later(() => ledger.insertSubmitting(input, operator)),
    createGuarded: (input, operator, guard, opts) =>
      later(() => {
        if (opts?.approvalId !== undefined) {
          throw new TeamLedgerError(
            'unsupported',
            'approvals exist only on the team ledger',
            UNSUPPORTED_APPROVAL,
          )
        }
        if (!guard.confirmed) {
          const allowed = new Set(guard.allow ?? [])
          const similar = ledger
            .findRecentSimilar({
              pixKey: input.pixKey,
              amountKind: input.amountKind,
              amountCents: input.amountCents,
              sinceIso: guard.sinceIso,
              ...(guard.profile === undefined ? {} : { profile: guard.profile }),
              ...(guard.partnerRateBps === undefined ? {} : { partnerRateBps: guard.partnerRateBps }),
            })
            .filter((r) => !allowed.has(r.localId))
          if (similar.length > 0) return { kind: 'duplicate' as const, similar }
        }
        return { kind: 'inserted' as const, record: ledger.insertSubmitting(input, operator) }
      }),
    markCreated: (id, outcome) => later(() => ledger.markCreated(id, outcome)),
    applyJournaledCreate: (id, outcome) => later(() => ledger.applyJournaledCreate(id, outcome)),
    markRejected: (id, error) => later(() => ledger.markRejected(id, error)),
    markOutcomeUnknown: (id, error, reason) => later(() => ledger.markOutcomeUnknown(id, error, reason)),
    recoverInterrupted: () => later(() => ledger.recoverInterrupted()),
    resolveUnknown: (id, r, operator) => later(() => ledger.resolveUnknown(id, r, operator)),
    recordObservation: (id, obs) => later(() => ledger.recordObservation(id, obs)),
    markFunded: (id, funding, operator) => later(() => ledger.markFunded(id, funding, operator)),
    markFundedMany: (ids, funding, operator) => later(() => ledger.markFundedMany(ids, funding, operator)),
    setFlags: (id, flags, operator) => later(() => ledger.setFlags(id, flags, operator)),
    get: (id) => later(() => ledger.get(id)),
    findByRemoteId: (id) => later(() => ledger.findByRemoteId(id)),
    listOpen: () => later(() => ledger.listOpen()),
    findRecentSimilar: (q) => later(() => ledger.findRecentSimilar(q)),
    query: (f) => later(() => ledger.query(f)),
    runLinks: (ids) => later(() => ledger.runLinks(ids)),
    iterate: async function* (f) {
      // Batches of 500 between yields: the sync generator must not hold the event loop for a whole export.
      let n = 0
      for (const r of ledger.iterate(f)) {
        yield r
        if (++n % 500 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    },
    totalsByStatus: (f) => later(() => ledger.totalsByStatus(f)),
    observations: (id) => later(() => ledger.observations(id)),
    audit: (options) => later(() => ledger.audit(options)),
    appendAudit: (entry) => later(() => ledger.appendAudit(entry)),
    auditHead: () => later(() => ledger.auditHead()),
    verifyAuditChain: () => later(() => ledger.verifyAuditChain()),
    close: () => later(() => (o.closeLedger === false ? undefined : ledger.close())),
  }
}
