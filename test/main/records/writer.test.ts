import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createHasher, HashedFile } from '../../../src/main/records/writer'
import { tempDir } from './fixtures'

describe('HashedFile', () => {
  it('writes every piece in order and hashes exactly the file, across chunk and overflow boundaries', async () => {
    const hasher = createHasher()
    try {
      const dir = tempDir()
      const pieces = [
        'início ',
        'x'.repeat(400_000),
        'ção😀'.repeat(100_000),
        'y'.repeat(2_000_000),
        'z',
        'é'.repeat(300_000),
      ]
      const files = await Promise.all(
        [0, 1].map(async (k) => {
          const f = await HashedFile.create(path.join(dir, `f${k}.txt`), hasher)
          for (const p of pieces) if (f.write(p)) await f.flush()
          await f.writeBuffer(Buffer.from('tail'))
          f.write('end')
          return f.close()
        }),
      )
      const expected = Buffer.from(pieces.join('') + 'tailend', 'utf8')
      for (const [k, w] of files.entries()) {
        const buf = fs.readFileSync(path.join(dir, `f${k}.txt`))
        expect(buf.equals(expected)).toBe(true)
        expect(w).toEqual({
          bytes: expected.length,
          sha256: createHash('sha256').update(expected).digest('hex'),
        })
      }
    } finally {
      await hasher.close()
    }
  })

  it('never overwrites an existing file', async () => {
    const file = path.join(tempDir(), 'taken')
    fs.writeFileSync(file, 'mine')
    await expect(HashedFile.create(file, null)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(fs.readFileSync(file, 'utf8')).toBe('mine')
  })
})
