import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { HashedFile } from '../../../src/main/records/writer'
import { tempDir } from './fixtures'

describe('HashedFile', () => {
  it('writes every piece in order and hashes exactly the file, across chunk and overflow boundaries, and appends a file', async () => {
    const dir = tempDir()
    const pieces = [
      'início ',
      'x'.repeat(400_000),
      'ção😀'.repeat(100_000),
      'y'.repeat(2_000_000),
      'z',
      'é'.repeat(300_000),
    ]
    // Appended through one reused buffer: more than two of its chunks, no two alike.
    const scratch = `tail${Array.from({ length: 400_000 }, (_, i) => i).join(',')}`
    fs.writeFileSync(path.join(dir, 'scratch'), scratch)
    // Two files written in turns, as an export writes its files: each hashes only its own bytes.
    const files = await Promise.all([0, 1].map((k) => HashedFile.create(path.join(dir, `f${k}.txt`), true)))
    for (const p of pieces) {
      for (const f of files) f.write(p)
      await Promise.all(files.map((f) => f.drain()))
    }
    for (const f of files) await f.append(path.join(dir, 'scratch'))
    for (const f of files) f.write('end')
    const written = await Promise.all(files.map((f) => f.close()))
    const expected = Buffer.from(`${pieces.join('')}${scratch}end`, 'utf8')
    for (const [k, w] of written.entries()) {
      const buf = fs.readFileSync(path.join(dir, `f${k}.txt`))
      expect(buf.equals(expected)).toBe(true)
      expect(w).toEqual({
        bytes: expected.length,
        sha256: createHash('sha256').update(expected).digest('hex'),
      })
    }
  })

  it('a scratch file is written but not hashed', async () => {
    const file = path.join(tempDir(), 'scratch')
    const f = await HashedFile.create(file, false)
    f.write('rows')
    expect(await f.close()).toEqual({ bytes: 4, sha256: '' })
    expect(fs.readFileSync(file, 'utf8')).toBe('rows')
  })

  it('never overwrites an existing file', async () => {
    const file = path.join(tempDir(), 'taken')
    fs.writeFileSync(file, 'mine')
    await expect(HashedFile.create(file, true)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(fs.readFileSync(file, 'utf8')).toBe('mine')
  })
})
