/**
 * scripts/security.mjs gates on Electronegativity, which silently skips a file its AST walker cannot walk (then
 * every check of that file looks missing, or its flaws go unseen). The gate walks each file itself and fails.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, expect, it } from 'vitest'

const repo = resolve(__dirname, '../..')
let dir: string
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('fails, naming the file, when the scanner cannot walk a built file (class private fields)', () => {
  dir = mkdtempSync(join(tmpdir(), 'security-'))
  mkdirSync(join(dir, 'main'))
  const file = join(dir, 'main', 'index.js')
  writeFileSync(file, 'class A { #x = 1; get() { return this.#x } }\nmodule.exports = A\n')
  const r = spawnSync(process.execPath, [join(repo, 'scripts/security.mjs'), dir], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 120_000,
  })
  expect(r.status).toBe(1)
  expect(r.stderr).toContain(`security: the scanner cannot walk ${file}`)
})
