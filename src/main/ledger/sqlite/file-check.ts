/**
 * `PRAGMA quick_check` over the whole file on a worker thread: on a large ledger it reads every page (seconds for
 * hundreds of MB), which must not freeze the main process. The worker's code is a string evaluated by the worker
 * (main is bundled into one file; a worker cannot import a module), opening its own read-only connection.
 */
import { Worker } from 'node:worker_threads'

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
let db
try {
  db = new DatabaseSync(workerData.file, { readOnly: true })
  const rows = db.prepare('PRAGMA quick_check').all()
  parentPort.postMessage({ problems: rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok') })
} catch (e) {
  parentPort.postMessage({ problems: [String(e && e.message ? e.message : e)] })
} finally {
  if (db) db.close()
}
`

/** The problems quick_check reports (empty: the file is sound). */
export function quickCheckFile(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } })
    worker.once('message', (m: { problems: string[] }) => {
      resolve(m.problems)
      void worker.terminate()
    })
    worker.once('error', reject)
  })
}
