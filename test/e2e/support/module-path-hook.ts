/**
 * electron-vite's `?modulePath` import under Playwright's loader (the fixtures run main's context in-process):
 * the path of the TypeScript source, as vitest.config.ts's plugin gives vitest. Loaded by playwright.config.ts,
 * which every Playwright worker loads before a spec.
 */
import { existsSync } from 'node:fs'
import Module from 'node:module'
import { dirname, resolve } from 'node:path'

const SUFFIX = '?modulePath'
const PREFIX = '\0module-path:'
type Resolve = (
  request: string,
  parent: { filename?: string | null } | undefined,
  ...rest: unknown[]
) => string
const M = Module as unknown as { _resolveFilename: Resolve }
const original = M._resolveFilename

M._resolveFilename = function (request, parent, ...rest) {
  if (!request.endsWith(SUFFIX)) return original.call(this, request, parent, ...rest)
  const base = resolve(dirname(parent?.filename ?? process.cwd()), request.slice(0, -SUFFIX.length))
  const source = ['.ts', '.js'].map((ext) => base + ext).find((f) => existsSync(f)) ?? base
  const id = PREFIX + source
  if (!require.cache[id]) {
    const m = new Module(id)
    m.filename = id
    m.loaded = true
    m.exports = { __esModule: true, default: source }
    require.cache[id] = m
  }
  return id
}
