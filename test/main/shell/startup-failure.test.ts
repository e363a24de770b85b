import { createServer } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLedger } from '../../../src/main/ledger/sqlite'
import {
  classifyStartupFailure,
  reportStartupFailure,
  startupFailureLanguage,
} from '../../../src/main/shell/startup-failure'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'startup-failure-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function caught(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}

describe('classifyStartupFailure, on the real errors', () => {
  it('a file that is not a database: ledger_damaged, and the file is left byte for byte', () => {
    const file = join(dir, 'ledger.sqlite')
    const garbage = Buffer.from('not a ledger '.repeat(400))
    writeFileSync(file, garbage)
    expect(classifyStartupFailure(caught(() => openLedger(file)))).toBe('ledger_damaged')
    expect(readFileSync(file).equals(garbage)).toBe(true)
  })

  it('a ledger written by a newer app: ledger_too_new', () => {
    const file = join(dir, 'ledger.sqlite')
    const db = new DatabaseSync(file)
    db.exec('PRAGMA user_version = 9999')
    db.close()
    expect(classifyStartupFailure(caught(() => openLedger(file)))).toBe('ledger_too_new')
  })

  it('a port that cannot be bound: port', async () => {
    const a = createServer()
    await new Promise<void>((r) => a.listen(0, '127.0.0.1', r))
    const port = (a.address() as { port: number }).port
    const b = createServer()
    const error = await new Promise<unknown>((r) => {
      b.once('error', r)
      b.listen(port, '127.0.0.1')
    })
    a.close()
    expect(classifyStartupFailure(error)).toBe('port')
  })

  it('anything else: unknown', () => {
    expect(classifyStartupFailure(new Error('ledger is damaged'))).toBe('unknown') // text is never read
    expect(classifyStartupFailure('boom')).toBe('unknown')
    expect(classifyStartupFailure(null)).toBe('unknown')
  })
})

describe('startupFailureLanguage', () => {
  it("the app's own setting wins; else English systems get English and every other Portuguese", () => {
    const settings = join(dir, 'settings.json')
    expect(startupFailureLanguage(settings, ['en-US'])).toBe('en')
    expect(startupFailureLanguage(settings, ['de-DE'])).toBe('pt-BR')
    expect(startupFailureLanguage(settings, [])).toBe('pt-BR')
    writeFileSync(settings, JSON.stringify({ settings: { language: 'pt-BR' } }))
    expect(startupFailureLanguage(settings, ['en-US'])).toBe('pt-BR')
    writeFileSync(settings, JSON.stringify({ settings: { language: 'klingon' } }))
    expect(startupFailureLanguage(settings, ['en-GB'])).toBe('en')
    writeFileSync(settings, '{broken')
    expect(startupFailureLanguage(settings, ['pt-PT'])).toBe('pt-BR')
  })
})

describe('reportStartupFailure', () => {
  it('writes the whole error to userData/logs and shows what failed, where the log is, what to do', () => {
    const shown: Array<[string, string]> = []
    const cause = new Error('inner cause')
    const error = Object.assign(new Error('outer', { cause }), { code: 'ERR_SQLITE_ERROR', errcode: 11 })
    const r = reportStartupFailure(error, {
      dataDir: dir,
      systemLocales: ['pt-BR'],
      header: 'Tesouraria DePix 0.1.0 linux',
      showErrorBox: (t, c) => shown.push([t, c]),
      now: () => new Date('2026-11-25T00:00:00Z'),
    })
    expect(r).toEqual({ kind: 'ledger_damaged', logFile: join(dir, 'logs', 'startup.log') })
    const log = readFileSync(join(dir, 'logs', 'startup.log'), 'utf8')
    expect(log).toContain('2026-11-25T00:00:00.000Z start-up failure (Tesouraria DePix 0.1.0 linux)')
    expect(log).toContain('outer')
    expect(log).toContain('inner cause')
    expect(log).toMatch(/at .*startup-failure\.test\.ts/) // the stack, not just the name
    expect(shown).toHaveLength(1)
    const [title, content] = shown[0]!
    expect(title).toBe('O Tesouraria DePix não pôde iniciar')
    expect(content).toContain('ledger.sqlite) está danificado')
    expect(content).toContain('não foi alterado nem apagado')
    expect(content).toContain(`Faça uma cópia da pasta ${dir}`)
    expect(content).toContain(`O erro completo foi gravado em: ${join(dir, 'logs', 'startup.log')}`)
  })

  it('in English, and still shows the dialog when the log cannot be written', () => {
    const shown: Array<[string, string]> = []
    writeFileSync(join(dir, 'logs'), 'a file where the logs folder should be')
    const r = reportStartupFailure(new Error('x'), {
      dataDir: dir,
      systemLocales: ['en-US'],
      header: 'h',
      showErrorBox: (t, c) => shown.push([t, c]),
    })
    expect(r.logFile).toBeNull()
    expect(shown[0]?.[0]).toBe('Tesouraria DePix could not start')
    expect(shown[0]?.[1]).toContain('An unexpected error happened while starting.')
    expect(shown[0]?.[1]).toContain('The log file could not be written.')
  })
})
