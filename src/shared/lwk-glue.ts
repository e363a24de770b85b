/**
 * lwk_wasm's generated glue imports one global `fetch(request)`: all of LWK's HTTP (Esplora in main, a Jade's
 * PIN-server handshake in the renderer). Main and the renderer each hand it their own transport. Its hashed name
 * changes with every LWK build, so it is found by shape (its arity), and loading fails loudly if the pinned version ever stops
 * having exactly one.
 */
export function lwkFetchImportName(glue: object): string {
  const names = Object.keys(glue).filter((k) => {
    if (!k.startsWith('__wbg_fetch_')) return false
    const f = (glue as Record<string, unknown>)[k]
    // One parameter: `fetch(request)`; the other fetch import is `target.fetch(request)`. By arity, not by source
    // text: the renderer's bundle is minified.
    return typeof f === 'function' && f.length === 1
  })
  if (names.length !== 1) throw new Error(`lwk_wasm: expected one global fetch import, found ${names.length}`)
  return names[0] as string
}
