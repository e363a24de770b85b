/**
 * The PSET file and QR (issue #28): base64 text out, base64 text or binary PSET in, anything else refused as
 * `not_a_pset`; a QR code only when the base64 fits in one, and then one that decodes to it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PayRefusal } from '../../../../src/main/wallet/pay/errors'
import {
  PSET_QR_MAX_CHARS,
  psetFileName,
  psetFileText,
  psetQr,
  readPsetFile,
} from '../../../../src/main/wallet/pay/pset-file'

const dir = mkdtempSync(join(tmpdir(), 'pset-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The start of a real PSET (magic "pset" 0xff, then a global map): enough for the file checks here.
const BINARY = Buffer.from('70736574ff01020304', 'hex')
const BASE64 = BINARY.toString('base64')

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name)
  writeFileSync(p, content)
  return p
}

function code(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    if (e instanceof PayRefusal) return e.code
    throw e
  }
  return 'accepted'
}

describe('PSET files', () => {
  it('reads back what it writes, a binary PSET as its base64, and base64 wrapped over lines', () => {
    expect(readPsetFile(file('out.pset', psetFileText(BASE64)))).toBe(BASE64)
    expect(readPsetFile(file('bin.pset', BINARY))).toBe(BASE64)
    expect(readPsetFile(file('wrapped.pset', `${BASE64.slice(0, 6)}\r\n${BASE64.slice(6)}\n`))).toBe(BASE64)
  })

  it('refuses an empty file, text that is not base64, a missing file', () => {
    expect(code(() => readPsetFile(file('empty.pset', '')))).toBe('not_a_pset')
    expect(code(() => readPsetFile(file('text.pset', 'não é base64!')))).toBe('not_a_pset')
    expect(code(() => readPsetFile(join(dir, 'nowhere.pset')))).toBe('not_a_pset')
  })

  it('names the file by the transaction, never by a payee', () => {
    expect(psetFileName('ab'.repeat(32), false)).toBe('depix-pagamento-abababababab.pset')
    expect(psetFileName('ab'.repeat(32), true)).toBe('depix-pagamento-abababababab-assinada.pset')
  })
})

describe('PSET QR', () => {
  it('draws one QR when the base64 fits, and says how long it is when it does not', async () => {
    const small = await psetQr(BASE64)
    expect(small).toMatchObject({ fits: true, chars: BASE64.length })
    if (!small.fits) throw new Error('unreachable')
    expect(small.svg).toMatch(/^<svg/)
    const atLimit = await psetQr('A'.repeat(PSET_QR_MAX_CHARS))
    expect(atLimit.fits).toBe(true)
    expect(await psetQr('A'.repeat(PSET_QR_MAX_CHARS + 1))).toEqual({
      fits: false,
      chars: PSET_QR_MAX_CHARS + 1,
      maxChars: PSET_QR_MAX_CHARS,
    })
  })
})
