import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import type { Plugin } from 'vite'

/**
 * electron-vite's `?modulePath` import (a worker built as a module of its own) under vitest: the path of the
 * TypeScript source, which the code starting the worker loads through tsx (ledger/sqlite/verify-off-thread.ts).
 */
function modulePathAsSource(): Plugin {
  return {
    name: 'treasury:module-path-as-source',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (!id.endsWith('?modulePath')) return null
      const r = await this.resolve(id.slice(0, -'?modulePath'.length), importer, { skipSelf: true })
      return r ? `\0module-path:${r.id}` : null
    },
    load(id) {
      if (!id.startsWith('\0module-path:')) return null
      return `export default ${JSON.stringify(resolve(id.slice('\0module-path:'.length)))}`
    },
  }
}

export default defineConfig({
  plugins: [modulePathAsSource()],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration suites start real servers and SQLite files; keep the pool small.
    // Most of the long files wait (PostgreSQL leases, lock rounds, the sandbox's clock) rather than compute: a third
    // worker on the two-core CI machine overlaps those waits (docs/DEVELOPMENT.md, "How long a full run takes").
    maxWorkers: 3,
  },
})
