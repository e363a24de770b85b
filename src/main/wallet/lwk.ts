/**
 * Loads Blockstream's Liquid Wallet Kit (`lwk_wasm`, unchanged) in main under plain Node 24 and in the bundled
 * Electron main.
 *
 * The npm package is wasm-bindgen's "bundler" build: `lwk_wasm.js` imports the `.wasm` file as an ES module, which
 * Node only does behind `--experimental-wasm-modules`. So we do what that entry does by hand: compile the `.wasm`
 * bytes and instantiate them with the generated glue (`lwk_wasm_bg.js`) as the import object.
 *
 * One import is replaced on the way in: the glue's `fetch(request)` (every HTTP request LWK's `EsploraClient`
 * makes). It goes to `lwkTransport` instead (src/main/wallet/transport.ts), which pins the host, caps bodies, times
 * requests out and counts them against a budget — the wasm client itself has no timeout, and its retry on
 * 429/503 sleeps through `window.setTimeout`, which does not exist in Node.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as glue from 'lwk_wasm/lwk_wasm_bg.js'
import type * as LwkModule from 'lwk_wasm'
import { lwkFetchImportName } from '../../shared/lwk-glue'

export type Lwk = typeof LwkModule

/** LWK's HTTP, handed to whoever main installs (`setLwkTransport`). Until then every request is refused. */
export type LwkTransport = (request: Request) => Promise<Response>

const refuseAll: LwkTransport = () => Promise.reject(new Error('no chain transport installed'))
let transport: LwkTransport = refuseAll

export function setLwkTransport(t: LwkTransport | null): void {
  transport = t ?? refuseAll
}

// Main's TypeScript lib has no DOM/WebAssembly declarations; this is the little of the API used here.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: object }
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

let loaded: Lwk | null = null

/** Synchronous on purpose: the module is ~9.5 MB and compiles in well under a second; callers need no await. */
export function loadLwk(): Lwk {
  if (loaded !== null) return loaded
  // Not import.meta: the bundled main, tsx and Playwright load this file as CommonJS, where it is a syntax error.
  // Every loader here defines __filename (vitest too), and node_modules is found upward from it (app.asar too).
  const require = createRequire(__filename)
  const bytes = readFileSync(require.resolve('lwk_wasm/lwk_wasm_bg.wasm'))
  const module = new wasmApi.Module(bytes)
  const imports = { ...glue, [lwkFetchImportName(glue)]: (request: Request) => transport(request) }
  const instance = new wasmApi.Instance(module, { './lwk_wasm_bg.js': imports })
  glue.__wbg_set_wasm(instance.exports)
  ;(instance.exports as { __wbindgen_start: () => void }).__wbindgen_start()
  loaded = glue as unknown as Lwk
  return loaded
}
