/** The channels of the ledger's integrity and backups (Settings, the integrity banner). */
import type { Handlers } from '../ipc/router'
import type { AppState } from './context'

type LedgerHandlers = Pick<Handlers, 'ledger:integrity' | 'ledger:backups' | 'ledger:restore'>

export function ledgerHandlers(state: AppState): LedgerHandlers {
  return {
    'ledger:integrity': () => state.integrityStatus(),
    'ledger:backups': () => state.ledger.backups(),
    'ledger:restore': async ({ name }) => {
      // No check may be reading the file being replaced; start() checks the restored one.
      await state.integrity.stop()
      try {
        // The renderer sends a name from the list, never a path; backupPath() accepts only a listed one.
        return state.ledger.restoreBackup(name, state.o.operator)
      } finally {
        state.integrity.start()
      }
    },
  }
}
