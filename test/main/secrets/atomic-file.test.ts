import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errnoCode, fileTimestamp, moveAside, writeFileAtomic } from '../../../src/main/secrets/atomic-file'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atomic-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('writeFileAtomic', () => {
  it('replaces content, creates missing parent directories, and leaves no temp file', () => {
    const file = join(dir, 'a', 'b', 'x.json')
    writeFileAtomic(file, 'one')
    writeFileAtomic(file, 'two')
    expect(readFileSync(file, 'utf8')).toBe('two')
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['x.json'])
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('cleans its temp file when the rename fails', () => {
    // Renaming a file over a non-empty directory fails on every platform.
    const nested = join(dir, 'nested')
    writeFileAtomic(join(nested, 'f'), 'x')
    expect(() => writeFileAtomic(nested, 'y')).toThrow()
    expect(readdirSync(dir)).toEqual(['nested'])
  })
})

describe('moveAside', () => {
  it('renames to <file>.corrupt-<timestamp> and never reuses a name', () => {
    const file = join(dir, 'f.json')
    const at = new Date('2025-01-02T03:04:05.006Z')
    writeFileSync(file, 'a')
    expect(moveAside(file, at)).toBe(`${file}.corrupt-2025-01-02T03-04-05-006Z`)
    writeFileSync(file, 'b')
    expect(moveAside(file, at)).toBe(`${file}.corrupt-2025-01-02T03-04-05-006Z-1`)
    expect(fileTimestamp(at)).not.toContain(':')
  })
})

describe('errnoCode', () => {
  it('keeps only a well-formed code', () => {
    expect(errnoCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT')
    expect(errnoCode(Object.assign(new Error('x'), { code: 'secret value here' }))).toBe('unknown')
    expect(errnoCode('nope')).toBe('unknown')
  })
})
