// The renderer's view of lwk_wasm's generated glue (the same declaration main has in src/main/wallet/lwk-glue.d.ts:
// the package entry's classes plus the hook that hands it the instantiated module), and of the `.wasm` as base64
// (the `lwkWasmBase64` plugin in electron.vite.config.ts).
declare module 'lwk_wasm/lwk_wasm_bg.js' {
  export * from 'lwk_wasm'
  export function __wbg_set_wasm(exports: object): void
}
declare module 'virtual:lwk-wasm-base64' {
  const base64: string
  export default base64
}
