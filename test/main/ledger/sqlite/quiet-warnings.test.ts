import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  isSqliteExperimentalWarning,
  quietSqliteExperimentalWarning,
} from '../../../../src/main/ledger/sqlite/quiet-warnings'

function warning(name: string, message: string): Error {
  return Object.assign(new Error(message), { name })
}

describe('quietSqliteExperimentalWarning', () => {
  it("drops Node's SQLite ExperimentalWarning and passes every other warning to the original printer", () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process
    const printed: string[] = []
    proc.on('warning', (w: Error) => printed.push(`${w.name}: ${w.message}`))
    quietSqliteExperimentalWarning(proc)
    proc.emit(
      'warning',
      warning('ExperimentalWarning', 'SQLite is an experimental feature and might change at any time'),
    )
    proc.emit('warning', warning('ExperimentalWarning', 'WASI is an experimental feature'))
    proc.emit('warning', warning('DeprecationWarning', 'SQLite something deprecated'))
    proc.emit('warning', warning('MaxListenersExceededWarning', 'leak'))
    expect(printed).toEqual([
      'ExperimentalWarning: WASI is an experimental feature',
      'DeprecationWarning: SQLite something deprecated',
      'MaxListenersExceededWarning: leak',
    ])
  })

  it('recognises the warning Node 24 really emits for node:sqlite', async () => {
    const { spawnSync } = await import('node:child_process')
    const r = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8' })
    const line = r.stderr.split('\n').find((l) => l.includes('ExperimentalWarning'))
    expect(line).toBeDefined()
    const [, name, message] = /\) (\w+): (.*)$/.exec(line ?? '') ?? []
    expect(isSqliteExperimentalWarning(warning(name ?? '', message ?? ''))).toBe(true)
  })
})
