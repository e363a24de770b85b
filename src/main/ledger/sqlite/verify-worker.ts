/**
 * The start-up check off the main thread: a module of its own (electron-vite builds it from the `?modulePath`
 * import in app/context.ts), which opens the ledger read-only, walks the chain from the checkpoint the main
 * thread passed (verifyChainSteps proves it or walks from the genesis) and hashes every record, in one read
 * transaction of its own. It posts the verdict and the head it verified up to.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { readHead, type AuditHead } from './audit'
import { verifyChainSteps } from './verify-chain'
import { quietSqliteExperimentalWarning } from './quiet-warnings'

// A worker has its own process warnings: quieted as main's are (index.ts).
quietSqliteExperimentalWarning()

const { file, checkpoint } = workerData as { file: string; checkpoint: AuditHead | null }
let raw: DatabaseSync | null = null
try {
  const open = new DatabaseSync(file, { readOnly: true })
  raw = open
  const cache = new Map<string, StatementSync>()
  const db = {
    stmt: (sql: string): StatementSync => {
      let s = cache.get(sql)
      if (!s) cache.set(sql, (s = open.prepare(sql)))
      return s
    },
    fresh: (sql: string): StatementSync => open.prepare(sql),
  }
  open.exec('PRAGMA busy_timeout = 5000')
  open.exec('BEGIN')
  const head = readHead(db)
  const steps = verifyChainSteps(db, checkpoint)
  let r = steps.next()
  while (!r.done) r = steps.next()
  open.exec('COMMIT')
  parentPort?.postMessage({ verification: r.value, head })
} catch (e) {
  parentPort?.postMessage({ error: e instanceof Error ? e.name : 'error' })
} finally {
  raw?.close()
}
