/**
 * Rolling backups of the ledger: `VACUUM INTO` a new file in `backups/` beside the ledger (a consistent copy
 * taken inside a read transaction, so writers are not blocked for long and the copy is never half-written),
 * before every migration and once a day; the newest BACKUPS_KEPT are kept. Backup names are generated here and
 * matched against one pattern when listed, so a name coming back from the renderer can only ever name one of them.
 */
import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { LedgerError } from '../model/errors'

export const BACKUPS_KEPT = 7
export const BACKUP_REASONS = ['migration', 'daily', 'restore', 'manual'] as const
export type BackupReason = (typeof BACKUP_REASONS)[number]

export interface BackupInfo {
  name: string
  createdAt: string
  reason: BackupReason
  sizeBytes: number
}

export const BACKUP_NAME_RE = /^ledger-(\d{8})T(\d{6})(\d{3})Z-(migration|daily|restore|manual)\.sqlite$/

export function backupsDir(ledgerFile: string): string {
  return join(dirname(ledgerFile), 'backups')
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace('.', '')
}

function parseName(name: string): { createdAt: string; reason: BackupReason } | null {
  const m = BACKUP_NAME_RE.exec(name)
  if (!m) return null
  const [, day, time, ms, reason] = m as unknown as [string, string, string, string, BackupReason]
  const createdAt = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}.${ms}Z`
  return Number.isNaN(Date.parse(createdAt)) ? null : { createdAt, reason }
}

/** Newest first. Only regular files with a name this module generates; links and folders are ignored. */
export function listBackups(ledgerFile: string): BackupInfo[] {
  const dir = backupsDir(ledgerFile)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw e
  }
  const out: BackupInfo[] = []
  for (const name of names) {
    const parsed = parseName(name)
    if (!parsed) continue
    const st = lstatSync(join(dir, name), { throwIfNoEntry: false })
    if (!st?.isFile()) continue
    out.push({ name, ...parsed, sizeBytes: st.size })
  }
  return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
}

export function backupPath(ledgerFile: string, name: string): string {
  if (!listBackups(ledgerFile).some((b) => b.name === name)) {
    throw new LedgerError('backup_not_found', `no ledger backup named ${JSON.stringify(name)}`, {
      'pt-BR': 'Esse backup não existe mais. Atualize a lista.',
      en: 'That backup no longer exists. Refresh the list.',
    })
  }
  return join(backupsDir(ledgerFile), name)
}

/** Copies the open database into a new backup, then drops the oldest beyond BACKUPS_KEPT. */
export function createBackup(
  db: DatabaseSync,
  ledgerFile: string,
  reason: BackupReason,
  now: Date,
): BackupInfo {
  const dir = backupsDir(ledgerFile)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  let t = now.getTime()
  let name = `ledger-${stamp(new Date(t))}-${reason}.sqlite`
  // Two backups in the same millisecond (a migration right after a restore): the name moves on by 1 ms.
  while (lstatSync(join(dir, name), { throwIfNoEntry: false })) {
    t += 1
    name = `ledger-${stamp(new Date(t))}-${reason}.sqlite`
  }
  db.prepare('VACUUM INTO ?').run(join(dir, name))
  rotateBackups(ledgerFile)
  const info = listBackups(ledgerFile).find((b) => b.name === name)
  if (!info) throw new Error(`ledger: backup ${name} vanished`)
  return info
}

export function rotateBackups(ledgerFile: string, keep: number = BACKUPS_KEPT): void {
  for (const old of listBackups(ledgerFile).slice(keep)) {
    rmSync(join(backupsDir(ledgerFile), old.name), { force: true })
  }
}

/** True when the newest backup is older than `maxAgeMs` (or there is none). */
export function backupDue(ledgerFile: string, now: Date, maxAgeMs: number): boolean {
  const newest = listBackups(ledgerFile)[0]
  return !newest || now.getTime() - Date.parse(newest.createdAt) >= maxAgeMs
}
