/**
 * Putting a backup in the ledger's place. The ledger must be closed. The backup is checked first (a regular file
 * that SQLite opens and `quick_check` accepts, with a ledger schema), copied beside the ledger, fsynced and
 * renamed over it, so a crash leaves either the old file or the restored one. The old WAL and shared-memory
 * files are removed before the rename: a WAL left from another file must never be replayed onto this one.
 */
import { closeSync, copyFileSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { LedgerError } from '../model/errors'

function checkBackup(source: string): void {
  const st = statSync(source)
  const bad = (detail: string): LedgerError =>
    new LedgerError('ledger_corrupt', `backup ${source}: ${detail}`, {
      'pt-BR': 'Esse backup está danificado e não pode ser restaurado. Escolha outro.',
      en: 'That backup is damaged and cannot be restored. Choose another one.',
    })
  if (!st.isFile() || st.size === 0) throw bad('not a non-empty regular file')
  let db: DatabaseSync | null = null
  try {
    db = new DatabaseSync(source, { readOnly: true })
    const rows = db.prepare('PRAGMA quick_check').all()
    if (rows.some((r) => Object.values(r)[0] !== 'ok')) throw bad('quick_check failed')
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'withdrawals'").get()) throw bad('not a ledger')
  } catch (e) {
    if (e instanceof LedgerError) throw e
    throw bad((e as Error).message)
  } finally {
    db?.close()
  }
}

export function replaceWithBackup(file: string, source: string): void {
  checkBackup(source)
  const tmp = `${file}.restore-tmp`
  copyFileSync(source, tmp)
  const fd = openSync(tmp, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  rmSync(`${file}-wal`, { force: true })
  rmSync(`${file}-shm`, { force: true })
  renameSync(tmp, file)
}
