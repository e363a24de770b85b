/**
 * Renderer initial JS: every script and modulepreload the built index.html loads, gzip-compressed. Budget
 * 300 KB read as 300,000 bytes (issue #26: the stricter reading, not 300 KiB). Builds first when out/renderer is
 * missing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const root = resolve(__dirname, '..')
const rendererDir = join(root, 'out', 'renderer')
const BUDGET_GZIP_BYTES = 300_000

export interface BundleResult {
  files: Array<{ file: string; bytes: number; gzipBytes: number }>
  totalGzipBytes: number
  budgetGzipBytes: number
  withinBudget: boolean
}

export async function run(): Promise<BundleResult> {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' })
  }
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const refs = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]!)
  const files = refs.map((file) => {
    const body = readFileSync(join(rendererDir, file))
    return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }
  })
  const totalGzipBytes = files.reduce((a, f) => a + f.gzipBytes, 0)
  return Promise.resolve({
    files,
    totalGzipBytes,
    budgetGzipBytes: BUDGET_GZIP_BYTES,
    withinBudget: totalGzipBytes <= BUDGET_GZIP_BYTES,
  })
}

if (require.main === module) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)))
}
