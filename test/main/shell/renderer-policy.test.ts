import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createServer } from 'vite'
import { describe, expect, it } from 'vitest'
import electronViteConfig from '../../../electron.vite.config'
import {
  CONTENT_SECURITY_POLICY,
  REACT_REFRESH_PREAMBLE,
  RENDERER_HEADERS,
  rendererHeadersFor,
  isAllowedExternalUrl,
  isAllowedSender,
  readRendererAsset,
} from '../../../src/main/shell/renderer-policy'

describe('renderer policy (docs/adr/0012-untrusted-renderer-one-typed-bridge.md)', () => {
  it('CSP forbids network, objects and base changes', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'")
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("base-uri 'none'")
    // WebAssembly compilation only ('wasm-unsafe-eval', for LWK and the Jade): never eval of JavaScript.
    expect(CONTENT_SECURITY_POLICY).not.toContain("'unsafe-eval'")
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

describe('dev server policy (npm run dev)', () => {
  const dev = 'http://localhost:5173'

  it('the production CSP is exactly the shipped one', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "font-src 'self'; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; " +
        "frame-ancestors 'none'; frame-src 'none'; worker-src 'none'",
    )
    expect(rendererHeadersFor('app://treasury/index.html')).toBe(RENDERER_HEADERS)
    expect(rendererHeadersFor('app://treasury/index.html', dev)).toBe(RENDERER_HEADERS)
  })

  it("allows every inline script Vite's dev server puts into index.html (React refresh), by hash", async () => {
    // Vite's own dev transform of our index.html, with the plugins of our renderer config.
    const server = await createServer({
      root: resolve(__dirname, '../../../src/renderer'),
      configFile: false,
      plugins: electronViteConfig.renderer?.plugins ?? [],
      server: { port: 0, ws: false },
      logLevel: 'silent',
    })
    let html: string
    try {
      html = await server.transformIndexHtml(
        '/',
        readFileSync(resolve(__dirname, '../../../src/renderer/index.html'), 'utf8'),
      )
    } finally {
      await server.close()
    }
    // The production meta policy would combine with the header and block the preamble: it is gone in dev only.
    expect(html).not.toMatch(/http-equiv="Content-Security-Policy"/i)
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => m[1] ?? '',
    )
    expect(inline).toContain(REACT_REFRESH_PREAMBLE)
    const csp = rendererHeadersFor(`${dev}/`, dev)['Content-Security-Policy'] ?? ''
    for (const script of inline) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    }
    expect(csp).toContain('connect-src http://localhost:5173 ws://localhost:5173;')
    // Only WebAssembly compilation (LWK for the Jade); never inline scripts or eval.
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval|hashes)'/)
    expect(csp).toMatch(/script-src 'self' 'sha256-[^']+' 'wasm-unsafe-eval';/)
    for (const kept of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "worker-src 'none'",
    ]) {
      expect(csp).toContain(kept)
    }
  })

  it('the dev policy is for the dev server origin only', () => {
    expect(rendererHeadersFor('http://localhost:5174/', dev)).toBe(RENDERER_HEADERS)
    expect(rendererHeadersFor('https://evil.example/', dev)).toBe(RENDERER_HEADERS)
    expect(rendererHeadersFor('not a url', dev)).toBe(RENDERER_HEADERS)
    expect(
      rendererHeadersFor('http://localhost:5173/src/main.tsx', dev)['Content-Security-Policy'],
    ).toContain('ws://localhost:5173')
  })
})
