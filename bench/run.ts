/**
 * Runs every benchmark in bench/ (files named *.bench.ts exporting `run()`), one after another so they do not
 * compete for the two cores, and prints each result as JSON. Results are copied into docs/BENCHMARKS.md by hand
 * with the machine and the command; benchmarks are not tests and never gate CI.
 */
import { readdirSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

async function main(): Promise<void> {
  const only = process.argv.slice(2)
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort()
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  )
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(__dirname, file)).href)) as { run?: () => Promise<unknown> }
    if (typeof mod.run !== 'function') {
      console.log(`${file}: no run() export, skipped`)
      continue
    }
    const started = Date.now()
    const result = await mod.run()
    console.log(`${file} (${Date.now() - started} ms): ${JSON.stringify(result, null, 2)}`)
  }
}

void main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
