import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CONTENT_SECURITY_POLICY,
  isAllowedExternalUrl,
  isAllowedSender,
  readRendererAsset,
} from '../../../src/main/shell/renderer-policy'

describe('renderer policy (DESIGN §1)', () => {
  it('CSP forbids network, objects and base changes', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'")
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("base-uri 'none'")
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
  })

  it('serves files of the renderer and nothing outside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'renderer-'))
    mkdirSync(join(root, 'assets'))
    writeFileSync(join(root, 'index.html'), '<html></html>')
    writeFileSync(join(root, 'assets', 'a.js'), 'x')
    writeFileSync(join(tmpdir(), 'outside.txt'), 'secret')
    expect((await readRendererAsset(root, '/'))?.contentType).toMatch(/text\/html/)
    expect((await readRendererAsset(root, '/assets/a.js'))?.contentType).toMatch(/javascript/)
    expect(await readRendererAsset(root, '/../outside.txt')).toBeNull()
    expect(await readRendererAsset(root, '/%2e%2e/outside.txt')).toBeNull()
    expect(await readRendererAsset(root, '/missing.js')).toBeNull()
    expect(await readRendererAsset(root, '/%E0%A4%A')).toBeNull()
  })

  it('only our own origin may call main', () => {
    expect(isAllowedSender('app://treasury/index.html')).toBe(true)
    expect(isAllowedSender('app://evil/index.html')).toBe(false)
    expect(isAllowedSender('https://treasury/index.html')).toBe(false)
    expect(isAllowedSender('file:///tmp/x.html')).toBe(false)
    expect(isAllowedSender(undefined)).toBe(false)
    expect(isAllowedSender('http://localhost:5173/', 'http://localhost:5173')).toBe(true)
    expect(isAllowedSender('http://localhost:5174/', 'http://localhost:5173')).toBe(false)
  })

  it('external links: https only, explorer or a known receipt', () => {
    expect(isAllowedExternalUrl('https://blockstream.info/liquid/tx/abc')).toBe(true)
    expect(isAllowedExternalUrl('http://blockstream.info/liquid/tx/abc')).toBe(false)
    expect(isAllowedExternalUrl('https://evil.example/receipt')).toBe(false)
    expect(isAllowedExternalUrl('https://r.example/1', ['https://r.example/1'])).toBe(true)
    expect(isAllowedExternalUrl('https://user:pw@blockstream.info/')).toBe(false)
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false)
  })
})
