// Runs Electronegativity over the build output and gates on its SARIF report. Its exit code is always 0, so
// the report is the only verdict: any result at level "warning" or "error" fails, as does a missing report.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
// `node scripts/security.mjs [dir]`: the build output by default.
const input = resolve(process.argv[2] ?? join(root, 'out'))
const reportDir = join(root, 'test-results')
const report = join(reportDir, 'electronegativity.sarif')
const electronVersion = createRequire(import.meta.url)('electron/package.json').version

if (!existsSync(join(input, 'main', 'index.js'))) {
  console.error('security: out/ has no build; run `npm run build` first.')
  process.exit(2)
}
// The scanner also drops a file silently when its AST walker meets a node type it does not know (class private
// fields from a bundled package did: every check of main then looked missing). Walk each file the way the scanner
// does, with its own parser, and fail on any file it cannot walk.
const { Parser } = createRequire(import.meta.url)('@doyensec/electronegativity/dist/parser/parser.js')
const parser = new Parser(false, true) // the scanner's own settings (runner.js)
const jsFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : /\.(c|m)?js$/.test(e.name) ? [join(dir, e.name)] : [],
  )
let unwalkable = 0
for (const file of jsFiles(input)) {
  try {
    const [, data] = parser.parse(file, readFileSync(file))
    data?.astParser.traverseTree(data, { enter: () => undefined, leave: () => undefined })
  } catch (e) {
    unwalkable += 1
    console.error(`security: the scanner cannot walk ${file} (${e instanceof Error ? e.message : String(e)})`)
  }
}
if (unwalkable > 0) process.exit(1)

mkdirSync(reportDir, { recursive: true })
const bin = join(root, 'node_modules', '.bin', 'electronegativity')
const run = spawnSync(bin, ['-i', input, '-o', report, '-e', electronVersion, '-v', 'false', '-r'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
  timeout: 300_000,
})
if (run.error) {
  console.error(`security: could not run electronegativity: ${run.error.message}`)
  process.exit(2)
}
// A file the scanner cannot parse is skipped with only a printed line, and its handlers then look missing or,
// worse, its flaws go unseen: an unparsed file fails the gate.
const output = `${run.stdout ?? ''}${run.stderr ?? ''}`
const unparsed = output.split('\n').filter((l) => /Error parsing/i.test(l))
for (const line of unparsed) console.error(`security: ${line.trim()}`)
if (unparsed.length > 0) process.exit(1)
if (!existsSync(report)) {
  console.error('security: electronegativity wrote no SARIF report')
  process.exit(2)
}
const sarif = JSON.parse(readFileSync(report, 'utf8'))
const results = (sarif.runs ?? []).flatMap((r) => r.results ?? [])
const failing = results.filter((r) => r.level === 'warning' || r.level === 'error')
for (const r of results) {
  const loc = r.locations?.[0]?.physicalLocation
  const where = `${loc?.artifactLocation?.uri ?? '?'}:${loc?.region?.startLine ?? '?'}`
  console.log(`${r.level.padEnd(7)} ${r.ruleId} ${where}`)
}
console.log(
  `security: ${results.length} findings, ${failing.length} at warning level or above (report: ${report})`,
)
process.exit(failing.length === 0 ? 0 : 1)
