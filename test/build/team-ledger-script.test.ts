/**
 * The `team-ledger` tool as it ships (issue #31): one built file that plain `node` runs without the source tree,
 * tsx or node_modules — on Node 20 (the oldest the docs promise) and on this project's Node — with no SQLite
 * ExperimentalWarning, and node:sqlite loaded only by `import`. The PostgreSQL behaviour of the same built file is
 * test/main/ledger/team/cli/team-ledger-cli.test.ts.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { builtinModules } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTeamLedger } from '../../scripts/build-team-ledger.mjs'

let dir: string
let script: string

/** Node 20 from the system when there is one (this machine has /usr/bin/node 20); always this project's Node. */
function nodes(): string[] {
  const found = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
    const v = spawnSync(p, ['--version'], { encoding: 'utf8' })
    return v.status === 0 && /^v20\./.test(v.stdout)
  })
  if (!found) console.warn('[team-ledger script] no Node 20 found: checked with this project’s Node only')
  return found ? [found, process.execPath] : [process.execPath]
}

function run(node: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  // Run from an empty directory with nothing but PATH: no node_modules to fall back on.
  const r = spawnSync(node, [script, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: dir },
    timeout: 30_000,
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-ledger-build-'))
  script = await buildTeamLedger(path.join(dir, 'team-ledger'))
}, 120_000)

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the built team-ledger script', () => {
  it('is one self-contained file beside setup.sql', () => {
    expect(fs.readdirSync(path.dirname(script)).sort()).toEqual(['setup.sql', 'team-ledger.cjs'])
    const text = fs.readFileSync(script, 'utf8')
    // Everything bundled: the only require()s left are Node's own modules, and pg's optional native binding
    // (required only if someone asks pg for it; the tool never does).
    const required = new Set([...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? ''))
    const builtin = (n: string): boolean => n.startsWith('node:') || builtinModules.includes(n)
    expect([...required].filter((n) => !builtin(n))).toEqual(['pg-native'])
    expect(required.has('pg')).toBe(false)
  })

  for (const node of nodes()) {
    it(`runs with ${node}: usage, backup advice, refusals, without warnings`, () => {
      const help = run(node, ['--help'])
      expect(help.status).toBe(0)
      expect(help.stdout).toContain('usage: team-ledger <command>')
      const unknown = run(node, ['frobnicate'])
      expect(unknown.status).toBe(1)
      expect(unknown.stderr).toContain('team-ledger: usage: team-ledger <command>')
      const advice = run(node, ['backup-advice', '--host', 'db.example.com', '--db', 'depix_team'])
      expect(advice.stdout).toContain('pg_dump -h db.example.com -p 5432 -U depix_owner -Fc')
      expect(advice.stdout).toContain('pg_dumpall -h db.example.com -p 5432 -U postgres --roles-only')
      const plain = run(node, ['status', '--host', 'db.example.com', '--sslmode', 'disable'])
      expect(plain.status).toBe(1)
      expect(plain.stderr).toContain('team-ledger: refusing to connect to db.example.com without TLS')
      // import loads node:sqlite: on Node 20 a clear refusal, on newer Node no ExperimentalWarning.
      const imp = run(node, [
        'import',
        path.join(dir, 'missing.sqlite'),
        '--host',
        'localhost',
        '--sslmode',
        'disable',
      ])
      expect(imp.status).toBe(1)
      const v20 = /^v20\./.test(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout)
      expect(imp.stderr).toContain(
        v20 ? 'it needs Node 22.5 or newer' : `no desk ledger at ${path.join(dir, 'missing.sqlite')}`,
      )
      for (const r of [help, unknown, advice, plain, imp]) expect(r.stderr).not.toMatch(/Warning/)
    })
  }
})
