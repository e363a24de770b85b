/**
 * When the app cannot start: the full error goes to a log file in `<userData>/logs/`, and a native error box tells
 * the user, in their language, what failed, where the log is and what to do. Electron-free (the shell passes
 * `dialog.showErrorBox`) so the boot smoke test and unit tests reach it without Electron.
 *
 * Nothing here touches the ledger: a damaged or newer ledger is reported and left exactly as it is, because it is
 * the only memory of the withdrawals this computer created (the API cannot list them).
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { z } from 'zod'
import { LANGUAGES, type Language } from '../../shared/profile'
import { LedgerError } from '../ledger/model/errors'

export type StartupFailureKind = 'ledger_damaged' | 'ledger_too_new' | 'ledger' | 'port' | 'unknown'

// SQLite primary result codes (the low byte of an extended code).
const SQLITE_CORRUPT = 11
const SQLITE_NOTADB = 26

/** Decided on error codes only, never on message text. */
export function classifyStartupFailure(error: unknown): StartupFailureKind {
  if (error instanceof LedgerError) {
    if (error.code === 'schema_too_new') return 'ledger_too_new'
    // The open checks (ledger/sqlite/open-checks.ts) turn SQLite's corruption codes into ledger_corrupt.
    return error.code === 'ledger_corrupt' ? 'ledger_damaged' : 'ledger'
  }
  if (typeof error !== 'object' || error === null) return 'unknown'
  const e = error as { code?: unknown; errcode?: unknown; syscall?: unknown }
  if (e.code === 'ERR_SQLITE_ERROR') {
    const primary = typeof e.errcode === 'number' ? e.errcode & 0xff : -1
    return primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB ? 'ledger_damaged' : 'ledger'
  }
  if (e.syscall === 'listen' && typeof e.code === 'string') return 'port'
  return 'unknown'
}

const settingsFileSchema = z.object({ settings: z.object({ language: z.enum(LANGUAGES) }) })

/**
 * The language the user chose in the app when its settings file can be read, else the system's: English for an
 * English system, Portuguese (the product's default) for any other.
 */
export function startupFailureLanguage(settingsFile: string, systemLocales: readonly string[]): Language {
  try {
    const parsed = settingsFileSchema.safeParse(JSON.parse(readFileSync(settingsFile, 'utf8')))
    if (parsed.success) return parsed.data.settings.language
  } catch {
    // No settings yet, or unreadable: the system decides.
  }
  return systemLocales[0]?.toLowerCase().startsWith('en') ? 'en' : 'pt-BR'
}

type Words = Record<StartupFailureKind, { what: string; todo: (dataDir: string) => string }> & {
  title: string
  logWritten: (file: string) => string
  logFailed: string
}

const WORDS: Record<Language, Words> = {
  'pt-BR': {
    title: 'O Tesouraria DePix não pôde iniciar',
    ledger_damaged: {
      what: 'O registro local das retiradas (ledger.sqlite) está danificado ou não é um arquivo deste app.',
      todo: (dir) =>
        `O arquivo não foi alterado nem apagado: ele é a única memória das retiradas criadas neste computador. Faça uma cópia da pasta ${dir} e procure o suporte antes de qualquer outra ação.`,
    },
    ledger_too_new: {
      what: 'O registro local das retiradas (ledger.sqlite) foi gravado por uma versão mais nova do Tesouraria DePix.',
      todo: () => 'Instale essa versão (ou uma mais nova) e abra o app de novo. O arquivo não foi alterado.',
    },
    ledger: {
      what: 'O registro local das retiradas (ledger.sqlite) não pôde ser aberto ou atualizado.',
      todo: (dir) =>
        `O arquivo não foi apagado. Feche outras cópias do app e abra-o de novo; se o erro continuar, procure o suporte com o arquivo de log e uma cópia da pasta ${dir}.`,
    },
    port: {
      what: 'O Sandbox embutido não conseguiu abrir uma porta local (127.0.0.1).',
      todo: () =>
        'Verifique se um firewall ou antivírus bloqueia conexões locais deste app e abra o app de novo.',
    },
    unknown: {
      what: 'Ocorreu um erro inesperado durante a inicialização.',
      todo: () => 'Abra o app de novo; se o erro continuar, envie o arquivo de log ao suporte.',
    },
    logWritten: (file) => `O erro completo foi gravado em: ${file}`,
    logFailed: 'Não foi possível gravar o arquivo de log.',
  },
  en: {
    title: 'Tesouraria DePix could not start',
    ledger_damaged: {
      what: 'The local withdrawal ledger (ledger.sqlite) is damaged or is not a file of this app.',
      todo: (dir) =>
        `The file was neither changed nor deleted: it is the only memory of the withdrawals created on this computer. Copy the folder ${dir} and contact support before doing anything else.`,
    },
    ledger_too_new: {
      what: 'The local withdrawal ledger (ledger.sqlite) was written by a newer version of Tesouraria DePix.',
      todo: () => 'Install that version (or a newer one) and open the app again. The file was not changed.',
    },
    ledger: {
      what: 'The local withdrawal ledger (ledger.sqlite) could not be opened or updated.',
      todo: (dir) =>
        `The file was not deleted. Close other copies of the app and open it again; if the error persists, contact support with the log file and a copy of the folder ${dir}.`,
    },
    port: {
      what: 'The embedded Sandbox could not open a local port (127.0.0.1).',
      todo: () =>
        'Check whether a firewall or antivirus blocks local connections of this app, then open the app again.',
    },
    unknown: {
      what: 'An unexpected error happened while starting.',
      todo: () => 'Open the app again; if the error persists, send the log file to support.',
    },
    logWritten: (file) => `The full error was written to: ${file}`,
    logFailed: 'The log file could not be written.',
  },
}

export function startupFailureMessage(
  kind: StartupFailureKind,
  language: Language,
  where: { dataDir: string; logFile: string | null },
): { title: string; content: string } {
  const w = WORDS[language]
  const log = where.logFile ? w.logWritten(where.logFile) : w.logFailed
  return { title: w.title, content: [w[kind].what, w[kind].todo(where.dataDir), log].join('\n\n') }
}

/** Appends the whole error (stack, cause chain, own properties) to `<logsDir>/startup.log`; null if it cannot. */
export function writeStartupLog(logsDir: string, error: unknown, header: string, now: Date): string | null {
  try {
    mkdirSync(logsDir, { recursive: true })
    const file = join(logsDir, 'startup.log')
    const body = inspect(error, { depth: 6, breakLength: 120 })
    appendFileSync(file, `=== ${now.toISOString()} start-up failure (${header})\n${body}\n\n`, {
      mode: 0o600,
    })
    return file
  } catch {
    return null
  }
}

export interface StartupFailurePorts {
  /** `app.getPath('userData')`. */
  dataDir: string
  systemLocales: readonly string[]
  /** Name, version, platform: the first line of the log entry. */
  header: string
  showErrorBox: (title: string, content: string) => void
  now?: () => Date
}

export function reportStartupFailure(
  error: unknown,
  ports: StartupFailurePorts,
): { kind: StartupFailureKind; logFile: string | null } {
  const kind = classifyStartupFailure(error)
  const logFile = writeStartupLog(
    join(ports.dataDir, 'logs'),
    error,
    ports.header,
    (ports.now ?? (() => new Date()))(),
  )
  const language = startupFailureLanguage(join(ports.dataDir, 'settings.json'), ports.systemLocales)
  const { title, content } = startupFailureMessage(kind, language, { dataDir: ports.dataDir, logFile })
  ports.showErrorBox(title, content)
  return { kind, logFile }
}
