import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createJsonFileStore,
  openRecoveringStore,
  type KeyValueStore,
} from '../../../src/main/profiles/store'

let dir: string
let file: string
const at = new Date('2025-02-03T04:05:06.007Z')
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-'))
  file = join(dir, 'settings.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('createJsonFileStore', () => {
  it('persists values atomically with mode 0600', () => {
    const s = createJsonFileStore(file)
    expect(s.get('a')).toBeUndefined()
    s.set('a', { b: [1, 2] })
    s.set('c', 'x')
    s.delete('c')
    s.set('d', undefined)
    const again = createJsonFileStore(file)
    expect(again.get('a')).toEqual({ b: [1, 2] })
    expect(again.get('c')).toBeUndefined()
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: { b: [1, 2] } })
    expect(readdirSync(dir)).toEqual(['settings.json'])
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('hands out copies, so callers cannot change what is stored behind its back', () => {
    const s = createJsonFileStore(file)
    const v = { list: [1] }
    s.set('k', v)
    v.list.push(2)
    ;(s.get('k') as { list: number[] }).list.push(3)
    expect(s.get('k')).toEqual({ list: [1] })
  })

  for (const [label, content] of [
    ['not JSON', '{"profiles": ['],
    ['a JSON array', '[1,2]'],
    ['JSON null', 'null'],
  ] as const) {
    it(`moves aside a file that is ${label} and starts empty`, () => {
      writeFileSync(file, content)
      const s = createJsonFileStore(file, { now: () => at })
      const movedTo = `${file}.corrupt-2025-02-03T04-05-06-007Z`
      expect(s.warnings).toEqual([{ code: 'corrupt_file_moved_aside', movedTo }])
      expect(s.get('profiles')).toBeUndefined()
      s.set('x', 1)
      expect(readFileSync(movedTo, 'utf8')).toBe(content)
    })
  }

  it('refuses to overwrite a file it could not read', () => {
    mkdirSync(file)
    const s = createJsonFileStore(file)
    expect(s.warnings).toEqual([{ code: 'file_unreadable', errno: 'EISDIR' }])
    expect(() => s.set('x', 1)).toThrow(/refusing to overwrite/)
    expect(statSync(file).isDirectory()).toBe(true)
  })
})

describe('openRecoveringStore', () => {
  const memory = (): KeyValueStore => {
    const m = new Map<string, unknown>()
    return { get: (k) => m.get(k), set: (k, v) => void m.set(k, v), delete: (k) => void m.delete(k) }
  }

  it('moves an unparsable file aside once and opens again', () => {
    writeFileSync(file, '{oops')
    let calls = 0
    const { store, warnings } = openRecoveringStore(
      () => {
        calls += 1
        if (existsSync(file)) JSON.parse(readFileSync(file, 'utf8'))
        return memory()
      },
      file,
      { now: () => at },
    )
    expect(calls).toBe(2)
    expect(store.get('x')).toBeUndefined()
    expect(warnings).toEqual([
      { code: 'corrupt_file_moved_aside', movedTo: `${file}.corrupt-2025-02-03T04-05-06-007Z` },
    ])
    expect(readFileSync(`${file}.corrupt-2025-02-03T04-05-06-007Z`, 'utf8')).toBe('{oops')
  })

  it('passes on errors that are not about parsing, without touching the file', () => {
    writeFileSync(file, '{}')
    expect(() =>
      openRecoveringStore(() => {
        throw new Error('EACCES')
      }, file),
    ).toThrow('EACCES')
    expect(readFileSync(file, 'utf8')).toBe('{}')
  })
})
