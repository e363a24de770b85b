// wasm-bindgen's generated glue of lwk_wasm ships no types of its own: it exports the same classes as the
// package entry (whose .d.ts is lwk_wasm.d.ts) plus the hook that hands it the instantiated module.
declare module 'lwk_wasm/lwk_wasm_bg.js' {
  export * from 'lwk_wasm'
  export function __wbg_set_wasm(exports: object): void
}
