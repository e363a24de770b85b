/**
 * Node prints "ExperimentalWarning: SQLite is an experimental feature…" on every start: noise for the user, and the
 * ledger depends on node:sqlite on purpose (docs/history/DECISIONS.md). Only that warning is dropped; every other warning
 * still reaches Node's own printer unchanged.
 *
 * Node emits a warning on the tick after `process.emitWarning`, so calling this synchronously while main's module
 * body runs is early enough even though the bundle requires node:sqlite at its top.
 */
export function isSqliteExperimentalWarning(warning: Error): boolean {
  return warning.name === 'ExperimentalWarning' && /^SQLite\b/.test(warning.message)
}

export function quietSqliteExperimentalWarning(proc: NodeJS.Process = process): void {
  const printers = proc.listeners('warning')
  proc.removeAllListeners('warning')
  proc.on('warning', (warning: Error) => {
    if (isSqliteExperimentalWarning(warning)) return
    for (const print of printers) print.call(proc, warning)
  })
}
