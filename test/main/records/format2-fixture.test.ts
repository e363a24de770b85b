import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyExport } from '../../../src/main/records/verify'

/**
 * An export written by export format 2 (manifest version 2), before issue #30 changed the format: committed as
 * it was written, so every later verifier must still verify it.
 */
const FOLDER = path.join(__dirname, '../../fixtures/export-format2')
const SIGNER = 'cdd4 2282 211b fa42 2ea4 06b5 63a9 f071'

describe('an export written by format 2 (before issue #30)', () => {
  it('still verifies, signed by the key that wrote it', async () => {
    const v = await verifyExport(FOLDER, { expectFingerprint: SIGNER })
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    expect(v.manifest?.version).toBe(2)
    expect(v.manifest?.rowCount).toBe(14)
  })
})
