import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

/**
 * ESM-only packages main uses. They are bundled into out/main instead of being `require`d / `import()`ed from
 * inside app.asar at run time, where loading ESM has failed in packaged apps (electron/electron#46614). `conf`
 * and the rest of electron-store's tree are not in `dependencies`, so they are bundled anyway.
 * test/build/built-main.test.ts fails if out/main loads any ESM-only package at run time. `lwk_wasm`'s JS glue is
 * bundled too; its `.wasm` is read from node_modules at run time (src/main/wallet/lwk.ts).
 */
export const BUNDLED_ESM_DEPENDENCIES = ['jose', 'electron-store', 'lwk_wasm']

/**
 * `npm run dev` only: drops index.html's `<meta http-equiv="Content-Security-Policy">`. Policies combine, so the
 * production meta would still block the React refresh preamble and the hot-reload websocket; in dev the shell
 * sends the dev policy as a header instead (`rendererHeadersFor` in src/main/shell/renderer-policy.ts). Builds
 * keep the meta.
 */
export function devServerWithoutMetaCsp(): Plugin {
  return {
    name: 'treasury:dev-server-without-meta-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''),
  }
}

/**
 * `virtual:lwk-wasm-base64`: lwk_wasm's `.wasm` as a base64 string, for the renderer's lazily loaded LWK ("Assinar
 * com a Jade (USB)", src/renderer/src/components/wallet/jade/lwk-in-renderer.ts). Inlined into that lazy chunk
 * because the renderer may fetch nothing (`connect-src 'none'`; app:// answers no fetch).
 */
export const LWK_WASM_MODULE = 'virtual:lwk-wasm-base64'
export function lwkWasmBase64(): Plugin {
  const resolved = `\0${LWK_WASM_MODULE}`
  return {
    name: 'treasury:lwk-wasm-base64',
    resolveId: (source) => (source === LWK_WASM_MODULE ? resolved : null),
    load: (id) =>
      id === resolved
        ? `export default ${JSON.stringify(
            readFileSync(resolve(__dirname, 'node_modules/lwk_wasm/lwk_wasm_bg.wasm')).toString('base64'),
          )}`
        : null,
  }
}

export default defineConfig({
  main: {
    // Class private fields lowered (to WeakMaps, still private): the security scanner's parser does not know
    // them, and a file it cannot parse would silently escape the scan.
    // Plain .js too (Vite's default excludes it): the bundled packages (conf…) have private fields as well.
    oxc: { target: 'es2021', include: /\.(m?[jt]s|[jt]sx|cjs)$/, exclude: [] },
    build: {
      externalizeDeps: { exclude: BUNDLED_ESM_DEPENDENCIES },
      // One file on purpose (below), loaded from disk once at start: the 500 kB web default does not apply.
      chunkSizeWarningLimit: 2048,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts') },
        // One file: the lazily imported electron-store would otherwise be a chunk requiring index.js back.
        output: { codeSplitting: false },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [react(), devServerWithoutMetaCsp(), lwkWasmBase64()],
    build: {
      // electron-vite leaves the renderer unminified by default; the initial JS budget is 300 KB gzip.
      minify: true,
      // Lowered like main: the security scanner's parser does not know class static blocks (a dependency's lazy
      // chunk has one), and a file it cannot walk would escape the scan.
      target: 'es2021',
      rolldownOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
})
