import { describe, expect, it } from 'vitest'
import { createFolderTokens, FOLDER_TOKEN_TTL_MS } from '../../../src/main/app/folder-tokens'

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f()
  } catch (e) {
    return (e as { code?: string }).code
  }
  return undefined
}

describe('folder tokens (the dialog answer, behind a one-use token)', () => {
  it('gives the folder once, for its purpose and its profile only', () => {
    const tokens = createFolderTokens()
    const a = tokens.issue('/home/ana/exports', 'export', 'sandbox')
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(tokens.take(a, 'export', 'sandbox')).toBe('/home/ana/exports')
    expect(codeOf(() => tokens.take(a, 'export', 'sandbox'))).toBe('folder_token_invalid')

    const b = tokens.issue('/home/ana/exports', 'export', 'sandbox')
    expect(codeOf(() => tokens.take(b, 'review', 'sandbox'))).toBe('folder_token_invalid')
    // A refused use spends the token too: no probing.
    expect(codeOf(() => tokens.take(b, 'export', 'sandbox'))).toBe('folder_token_invalid')

    const c = tokens.issue('/home/ana/exports', 'review', 'sandbox')
    expect(codeOf(() => tokens.take(c, 'review', 'prod'))).toBe('folder_token_other_profile')
    expect(codeOf(() => tokens.take('x'.repeat(43), 'review', 'sandbox'))).toBe('folder_token_invalid')
  })

  it('expires unused tokens after the TTL', () => {
    let now = 1_000_000
    const tokens = createFolderTokens(() => now)
    const fresh = tokens.issue('/a', 'review', 'sandbox')
    const stale = tokens.issue('/b', 'review', 'sandbox')
    now += FOLDER_TOKEN_TTL_MS - 1
    expect(tokens.take(fresh, 'review', 'sandbox')).toBe('/a')
    now += 1
    expect(codeOf(() => tokens.take(stale, 'review', 'sandbox'))).toBe('folder_token_invalid')
  })

  it('keeps at most 16 unused choices, dropping the oldest', () => {
    const tokens = createFolderTokens()
    const issued = Array.from({ length: 17 }, (_, i) => tokens.issue(`/f${i}`, 'export', 'sandbox'))
    expect(codeOf(() => tokens.take(issued[0] as string, 'export', 'sandbox'))).toBe('folder_token_invalid')
    expect(tokens.take(issued[16] as string, 'export', 'sandbox')).toBe('/f16')
  })
})
