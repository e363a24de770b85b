/**
 * The ledger's identity, kept outside the file: `<ledger>.identity.json` names the ledger id (ledger_meta,
 * migration 5), the last audit head and record count this app saw committed. Opening a file that is missing,
 * empty, another ledger (a different id) or behind that head is refused with a clear message instead of
 * silently starting a fresh ledger: every open withdrawal would stop being tracked and nothing would warn.
 * Written after every committed write that moved the head (write to a temporary file, fsync, rename), so it is
 * never ahead of the ledger; a crash between the two leaves it one step behind, which is accepted.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { AuditHead } from './audit'
import { LedgerError } from '../model/errors'

const identitySchema = z.strictObject({
  version: z.literal(1),
  ledgerId: z.string().regex(/^[0-9a-f]{32}$/),
  head: z.strictObject({ seq: z.number().int().nonnegative(), hash: z.string().regex(/^[0-9a-f]{64}$/) }),
  records: z.number().int().nonnegative(),
  updatedAt: z.string(),
})
export type LedgerIdentity = z.infer<typeof identitySchema>

/** The identity file is small; anything bigger is not ours. */
const MAX_IDENTITY_BYTES = 4096

export function identityPath(ledgerFile: string): string {
  return `${ledgerFile}.identity.json`
}

export function readIdentity(ledgerFile: string): LedgerIdentity | null {
  const file = identityPath(ledgerFile)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw e
  }
  const parsed =
    text.length <= MAX_IDENTITY_BYTES ? identitySchema.safeParse(safeJson(text)) : { success: false as const }
  if (!parsed.success) {
    throw new LedgerError('identity_unreadable', `ledger identity file ${file} is not valid`, {
      'pt-BR': `O arquivo de identidade do livro-caixa (${file}) está ilegível. Ele protege contra a troca do livro-caixa; restaure-o de um backup ou, se tiver certeza de que o livro-caixa está correto, apague esse arquivo para aceitá-lo como está.`,
      en: `The ledger identity file (${file}) is unreadable. It guards against the ledger being swapped; restore it from a backup or, if you are sure the ledger is right, delete that file to accept the ledger as it is.`,
    })
  }
  return parsed.data
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Atomic replace: a reader sees the old identity or the new one, never half of one. */
export function writeIdentity(
  ledgerFile: string,
  id: { ledgerId: string; head: AuditHead; records: number; now: string },
): void {
  const file = identityPath(ledgerFile)
  const tmp = `${file}.tmp`
  const body: LedgerIdentity = {
    version: 1,
    ledgerId: id.ledgerId,
    head: { seq: id.head.seq, hash: id.head.hash },
    records: id.records,
    updatedAt: id.now,
  }
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(body, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, file)
  fsyncDir(dirname(file))
}

function fsyncDir(dir: string): void {
  let fd: number | null = null
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

const both = (pt: string, en: string): { 'pt-BR': string; en: string } => ({ 'pt-BR': pt, en })

const RESTORE_HINT = both(
  'Restaure um backup (pasta "backups" ao lado do livro-caixa) ou, se você mesmo substituiu o arquivo de propósito, apague o arquivo de identidade ao lado dele para aceitá-lo.',
  'Restore a backup (the "backups" folder beside the ledger) or, if you replaced the file on purpose, delete the identity file beside it to accept it.',
)

export function refusal(
  code: 'ledger_missing' | 'ledger_empty' | 'ledger_replaced' | 'ledger_behind' | 'ledger_corrupt',
  file: string,
  detail: string,
  cause?: unknown,
): LedgerError {
  const what = {
    ledger_missing: both(
      `O livro-caixa ${file} sumiu, mas este computador já registrou retiradas nele.`,
      `The ledger ${file} is missing, but this computer has recorded withdrawals in it.`,
    ),
    ledger_empty: both(
      `O livro-caixa ${file} está vazio (0 bytes), mas este computador já registrou retiradas nele. Ele não será recriado vazio.`,
      `The ledger ${file} is empty (0 bytes), but this computer has recorded withdrawals in it. It will not be recreated empty.`,
    ),
    ledger_replaced: both(
      `O livro-caixa ${file} não é o que este computador registrou (outro arquivo foi colocado no lugar).`,
      `The ledger ${file} is not the one this computer recorded (another file was put in its place).`,
    ),
    ledger_behind: both(
      `O livro-caixa ${file} está atrás do último registro conhecido: registros de auditoria foram perdidos ou é uma cópia antiga.`,
      `The ledger ${file} is behind the last known record: audit entries were lost or it is an old copy.`,
    ),
    ledger_corrupt: both(
      `O livro-caixa ${file} está corrompido e não será aberto nem "reparado".`,
      `The ledger ${file} is corrupt and will not be opened or "repaired".`,
    ),
  }[code]
  return new LedgerError(
    code,
    `${code}: ${file}: ${detail}`,
    { 'pt-BR': `${what['pt-BR']} ${RESTORE_HINT['pt-BR']}`, en: `${what.en} ${RESTORE_HINT.en}` },
    cause === undefined ? undefined : { cause },
  )
}
