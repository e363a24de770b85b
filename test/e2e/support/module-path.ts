/**
 * electron-vite's `?modulePath` import (a worker built as a module of its own, e.g. ledger/verify-worker-path.ts)
 * under Playwright's loader: the path of the TypeScript source, as vitest.config.ts gives it, which the code
 * starting the worker loads through tsx. Imported first by the app fixture.
 */
import Module from 'node:module'
import { dirname, resolve } from 'node:path'

const SUFFIX = '?modulePath'
type Load = (request: string, parent: { filename?: string } | null, isMain: boolean) => unknown
const M = Module as unknown as { _load: Load }
const load = M._load
M._load = function (request, parent, isMain) {
  if (!request.endsWith(SUFFIX) || !parent?.filename) return load.call(this, request, parent, isMain)
  const source = `${resolve(dirname(parent.filename), request.slice(0, -SUFFIX.length))}.ts`
  return { __esModule: true, default: source }
}
