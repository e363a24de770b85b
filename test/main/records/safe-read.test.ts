import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { jsonTooDeepAt, otherNames, readRegularFile, UNLISTED_MAX } from '../../../src/main/records/safe-read'
import { tempDir } from './fixtures'
import './helpers'

describe('jsonTooDeepAt', () => {
  it('counts only brackets outside strings, escaped quotes included', () => {
    expect(jsonTooDeepAt('{"a":[1,{"b":[]}]}', 4)).toBe(-1)
    expect(jsonTooDeepAt('{"a":[1,{"b":[]}]}', 3)).toBe(13)
    expect(jsonTooDeepAt('{"a":[1,{"b":[]}]}', 2)).toBe(8)
    expect(jsonTooDeepAt('{"a":"[[[[\\"[[[["}', 1)).toBe(-1)
    expect(jsonTooDeepAt('{"a\\\\":[[]]}', 2)).toBe(8)
  })
})

describe('otherNames', () => {
  it(`returns at most ${UNLISTED_MAX} names, sorted, and says how many were left out`, async () => {
    const dir = tempDir()
    for (let i = 0; i < UNLISTED_MAX + 20; i++)
      fs.writeFileSync(path.join(dir, `f${String(i).padStart(3, '0')}`), '')
    fs.writeFileSync(path.join(dir, 'manifest.json'), '')
    const got = await otherNames(dir, new Set(['manifest.json']))
    expect(got.names).toHaveLength(UNLISTED_MAX)
    expect(got.names[0]).toBe('f000')
    expect(got).toMatchObject({ more: 20, stopped: false })
  })
})

describe('readRegularFile', () => {
  it('reads exactly the expected size; refuses another size, a larger one, a folder, a missing file', async () => {
    const dir = tempDir()
    const f = path.join(dir, 'a')
    fs.writeFileSync(f, 'hello')
    expect(await readRegularFile(f, { maxBytes: 5, expectBytes: 5 })).toEqual({ buf: Buffer.from('hello') })
    expect(await readRegularFile(f, { maxBytes: 10, expectBytes: 4 })).toEqual({
      refused: { kind: 'size', detail: '5 bytes, manifest says 4 (not read)' },
    })
    expect(await readRegularFile(f, { maxBytes: 4 })).toMatchObject({ refused: { kind: 'size' } })
    expect(await readRegularFile(dir, { maxBytes: 4 })).toEqual({
      refused: { kind: 'unsafe', detail: 'is a folder, not a regular file' },
    })
    expect(await readRegularFile(path.join(dir, 'b'), { maxBytes: 4 })).toMatchObject({
      refused: { kind: 'missing' },
    })
  })
})
