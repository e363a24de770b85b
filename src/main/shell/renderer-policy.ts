/**
 * What the renderer may load and who may talk to main. Electron-free so the E2E bridge serves the built
 * renderer with the very same headers the `app://` protocol handler sends.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

export const APP_SCHEME = 'app'
export const APP_HOST = 'treasury'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // Compiling WebAssembly (LWK, loaded only for "Assinar com a Jade (USB)"); no other eval of any kind.
  // docs/adr/0024-treasury-wallet-sees-reports-and-pays.md, amendment "A Jade signs over Web Serial"
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
].join('; ')

export const RENDERER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
}

/**
 * The inline module script @vitejs/plugin-react puts into the dev server's index.html (its `preambleCode` with
 * base `/`). Allowed by hash, not by 'unsafe-inline'; test/main/shell/renderer-policy.test.ts compares it with
 * the installed plugin's, so a plugin update that changes it fails there instead of blanking `npm run dev`.
 */
export const REACT_REFRESH_PREAMBLE = `import { injectIntoGlobalHook } from "/@react-refresh";
injectIntoGlobalHook(window);
window.$RefreshReg$ = () => {};
window.$RefreshSig$ = () => (type) => type;`

/**
 * `npm run dev` only, on the dev server's responses only: the production policy plus the React refresh preamble
 * (by hash) and the dev server's own origin for Vite's hot-reload websocket and ping. Nothing else is opened.
 */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const origin = new URL(devServerUrl)
  const ws = `${origin.protocol === 'https:' ? 'wss' : 'ws'}://${origin.host}`
  const preambleHash = createHash('sha256').update(REACT_REFRESH_PREAMBLE).digest('base64')
  return CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'",
    `script-src 'self' 'sha256-${preambleHash}'`,
  ).replace("connect-src 'none'", `connect-src ${origin.origin} ${ws}`)
}

/**
 * The headers added to a response the renderer loads: the dev policy for the dev server's responses when one is
 * running (development only), the production headers for everything else.
 */
export function rendererHeadersFor(
  responseUrl: string,
  devServerUrl?: string,
): Readonly<Record<string, string>> {
  if (devServerUrl && sameOrigin(responseUrl, devServerUrl)) {
    return { ...RENDERER_HEADERS, 'Content-Security-Policy': devContentSecurityPolicy(devServerUrl) }
  }
  return RENDERER_HEADERS
}

function sameOrigin(a: string, b: string): boolean {
  try {
    const origin = new URL(a).origin
    return origin !== 'null' && origin === new URL(b).origin
  } catch {
    return false
  }
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

/** Reads a file of the built renderer for a URL path; null for anything outside `rootDir` or missing. */
export async function readRendererAsset(
  rootDir: string,
  urlPath: string,
): Promise<{ body: Buffer; contentType: string } | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  const root = normalize(rootDir + sep)
  const file = normalize(join(root, relative))
  if (!file.startsWith(root)) return null
  try {
    const body = await readFile(file)
    return { body, contentType: MIME[extname(file).toLowerCase()] ?? 'application/octet-stream' }
  } catch {
    return null
  }
}

/** Only our own renderer may call main: the packaged `app://treasury` origin, or the dev server in development. */
export function isAllowedSender(frameUrl: string | undefined, devServerUrl?: string): boolean {
  if (!frameUrl) return false
  let url: URL
  try {
    url = new URL(frameUrl)
  } catch {
    return false
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true
  if (devServerUrl) {
    try {
      return url.origin === new URL(devServerUrl).origin
    } catch {
      return false
    }
  }
  return false
}

/**
 * External links open in the OS browser only over https and only to hosts we expect (receipt hosts of records
 * and the Liquid explorer). The caller passes the receipt URLs it knows of.
 */
export const LIQUID_EXPLORER_HOSTS = ['blockstream.info', 'liquid.network'] as const

export function isAllowedExternalUrl(raw: string, knownReceiptUrls: readonly string[] = []): boolean {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false
  if ((LIQUID_EXPLORER_HOSTS as readonly string[]).includes(url.hostname)) return true
  return knownReceiptUrls.includes(url.href)
}
