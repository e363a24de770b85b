/**
 * The two ledger engines a behaviour suite runs on: this computer's SQLite file and, where the PostgreSQL
 * binaries exist, a throwaway team cluster (one desk, `ana`). Without them the PostgreSQL half is announced as
 * skipped with the reason, never dropped silently.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  pgExportLedger,
  sqliteExportLedger,
  sqliteStore,
  type ExportLedger,
  type LedgerStore,
} from '../../../src/main/ledger/engines'
import { pgRunStore } from '../../../src/main/ledger/pg/run-store'
import { sqliteRunStore, type RunStore } from '../../../src/main/ledger/run-store'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

export interface Engine {
  name: 'sqlite' | 'postgres'
  open(): Promise<OpenEngine>
}

export interface OpenEngine {
  store: LedgerStore
  /** The same ledger's payment runs, and the ledger as an export reads it. */
  runs: RunStore
  exports: ExportLedger
  done: () => Promise<void>
}

/** `what` names the suite in the skip notice; `prefix` the SQLite file's temporary folder. */
export function bothEngines(what: string, prefix: string): Engine[] {
  const engines: Engine[] = [
    {
      name: 'sqlite',
      open: async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
        const ledger = openLedger(path.join(dir, 'ledger.sqlite'))
        const store = sqliteStore(ledger)
        return {
          store,
          runs: sqliteRunStore(ledger),
          exports: sqliteExportLedger(ledger),
          done: async () => {
            await store.close()
            fs.rmSync(dir, { recursive: true, force: true })
          },
        }
      },
    },
  ]
  announceSkip(`${what} (postgres)`)
  if (!PG_SKIP_REASON) {
    let team: Team | null = null
    engines.push({
      name: 'postgres',
      open: async () => {
        team = await startTeam()
        const store = await team.desk('ana')
        return {
          store,
          runs: pgRunStore(store.pool, store.identity),
          exports: pgExportLedger(store),
          done: async () => team?.stop(),
        }
      },
    })
  }
  return engines
}
