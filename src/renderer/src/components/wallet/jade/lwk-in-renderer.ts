/**
 * LWK (lwk_wasm, unchanged) in the renderer, for "Assinar com a Jade (USB)" only: lwk_wasm's `Jade` speaks Web
 * Serial, which exists in the renderer and not in main. This module is reached only through a dynamic import on
 * that click, so it and the wasm are a chunk of their own, outside the initial 300 KB (bench/renderer-bundle).
 *
 * The npm package is wasm-bindgen's "bundler" build (the `.wasm` imported as an ES module); as in main
 * (src/main/wallet/lwk.ts) the bytes are instantiated by hand with the generated glue as the import object. The
 * bytes travel inlined (base64, electron.vite.config.ts `lwkWasmBase64`) in this lazy chunk: the renderer may fetch nothing (`connect-src 'none'`, and
 * app:// answers no fetch), and compiling them needs `'wasm-unsafe-eval'` in script-src
 * (docs/adr/0024-treasury-wallet-sees-reports-and-pays.md, amendment "A Jade signs over Web Serial").
 *
 * The glue's network import (LWK's HTTP, used by a Jade only to reach its PIN server when it is unlocked) is handed
 * to main instead: `walletPay:jadePinServer` posts the Jade's handshake to Blockstream's PIN server and nowhere
 * else (src/main/wallet/pay/pin-server.ts). The renderer itself still fetches nothing.
 */
import * as glue from 'lwk_wasm/lwk_wasm_bg.js'
import wasmBase64 from 'virtual:lwk-wasm-base64'
import type * as LwkModule from 'lwk_wasm'
import { lwkFetchImportName } from '../../../../../shared/lwk-glue'
import { call } from '../../../ipc'

export type Lwk = typeof LwkModule

let loading: Promise<Lwk> | null = null

/** One instance per page; a failed load may be tried again. */
export function loadLwkInRenderer(): Promise<Lwk> {
  loading ??= instantiate().catch((e: unknown) => {
    loading = null
    throw e
  })
  return loading
}

async function instantiate(): Promise<Lwk> {
  const text = atob(wasmBase64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  const imports = { ...glue, [lwkFetchImportName(glue)]: pinServerFetch }
  const { instance } = await WebAssembly.instantiate(bytes, {
    './lwk_wasm_bg.js': imports as unknown as WebAssembly.ModuleImports,
  })
  glue.__wbg_set_wasm(instance.exports)
  ;(instance.exports as { __wbindgen_start: () => void }).__wbindgen_start()
  return glue as unknown as Lwk
}

/** LWK's `fetch(request)`, relayed by main; a refusal is a failed request, as a network error would be. */
async function pinServerFetch(request: Request): Promise<Response> {
  const r = await call('walletPay:jadePinServer', { url: request.url, body: await request.text() })
  if (!r.ok) throw new TypeError(r.error.code)
  const response = new Response(r.data.body, {
    status: r.data.status,
    headers: { 'Content-Type': 'application/json' },
  })
  // reqwest parses the response's URL, which a constructed Response does not have ("url parse", and LWK hangs).
  Object.defineProperty(response, 'url', { value: request.url })
  return response
}
