/** The channels of the ledger's integrity and backups (src/shared/channels-ledger.ts; Settings, the banner). */
import type { ledgerChannels } from '../../shared/channels-ledger'
import type { HandlersOf } from '../ipc/router'
import type { LedgerDeps } from './deps'

export function ledgerHandlers(deps: LedgerDeps): HandlersOf<typeof ledgerChannels> {
  return {
    'ledger:integrity': () => deps.integrityStatus(),
    'ledger:backups': () => deps.ledger.backups(),
    'ledger:restore': async ({ name }) => {
      // No check may be reading the file being replaced; start() checks the restored one.
      await deps.integrity.stop()
      try {
        // The renderer sends a name from the list, never a path; backupPath() accepts only a listed one.
        return deps.ledger.restoreBackup(name, deps.operator)
      } finally {
        deps.integrity.start()
      }
    },
  }
}
