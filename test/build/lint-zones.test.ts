/**
 * The layer rules of eslint.config.mjs (docs/adr/0023-one-ledger-folder-and-enforced-layers.md), run through ESLint's own API with the
 * project's real config on snippets placed at real paths: an import that crosses a layer the wrong way, and an
 * import circle, must fail. A config that silently stops checking (a resolver that resolves nothing, a parser
 * setting lost, a zone whose paths no longer match) fails here instead of letting the arrows run back up.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repo = resolve(__dirname, '../..')
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: repo })
})

/** The rule ids ESLint reports for `code` as if it were the file at `path` (relative to the repository). */
async function ruleIds(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repo, path) })
  const fatal = result!.messages.filter((m) => m.fatal)
  expect(fatal, 'the snippet must parse').toEqual([])
  return result!.messages.map((m) => m.ruleId ?? '')
}

const ZONE = 'import-x/no-restricted-paths'

// ESLint loads the TypeScript parser and resolver on first use: slow on a loaded machine, not a timing claim.
describe('layer zones', { timeout: 180_000 }, () => {
  it('refuses storage importing a feature, value or type, from any storage folder', async () => {
    expect(
      await ruleIds('src/main/ledger/zz-fixture.ts', "export { createPayeeBook } from '../payees'\n"),
    ).toContain(ZONE)
    expect(
      await ruleIds(
        'src/main/ledger/pg/zz-fixture.ts',
        "import type { WithdrawalService } from '../../withdrawals/types'\nexport type W = WithdrawalService\n",
      ),
    ).toContain(ZONE)
    // The app layer and the tracker engine are above storage too.
    expect(
      await ruleIds(
        'src/main/ledger/zz-fixture.ts',
        "export { createStatusEngine } from '../tracking/engine'\n",
      ),
    ).toContain(ZONE)
  })

  it('lets storage import what is below it (shared, another ledger module)', async () => {
    const ids = await ruleIds(
      'src/main/ledger/zz-fixture.ts',
      "export { canonicalJson } from './canonical-json'\nexport { STATUS_ORDER } from '../../shared/status-order'\n",
    )
    expect(ids).not.toContain(ZONE)
  })

  it('refuses tracking importing a feature', async () => {
    expect(
      await ruleIds(
        'src/main/tracking/zz-fixture.ts',
        "export { createWithdrawalService } from '../withdrawals'\n",
      ),
    ).toContain(ZONE)
    expect(
      await ruleIds('src/main/tracking/zz-fixture.ts', "export { DEFAULT_CADENCE } from './scheduler'\n"),
    ).not.toContain(ZONE)
  })

  it('refuses shared importing main or the renderer, and the renderer or the preload importing main', async () => {
    expect(
      await ruleIds('src/shared/zz-fixture.ts', "export { AppError } from '../main/app/errors'\n"),
    ).toContain(ZONE)
    expect(
      await ruleIds('src/renderer/src/zz-fixture.ts', "export { AppError } from '../../main/app/errors'\n"),
    ).toContain(ZONE)
    expect(
      await ruleIds('src/preload/zz-fixture.ts', "export { AppError } from '../main/app/errors'\n"),
    ).toContain(ZONE)
  })
})

describe('import circles', { timeout: 180_000 }, () => {
  // Two real files: the rule follows the other file's imports from disk. Under src/ so the real config applies.
  const dir = join(repo, `src/main/zz-lint-cycle-${process.pid}`)
  beforeAll(() => {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b'\nexport const a = (): number => b() + 1\n")
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a'\nexport const b = (): number => a() - 1\n")
    writeFileSync(
      join(dir, 'c.ts'),
      "import type { a } from './d'\nexport const c = (f: typeof a): number => f()\n",
    )
    writeFileSync(join(dir, 'd.ts'), "import { c } from './c'\nexport const a = (): number => c(a)\n")
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('fails on a two-file circle', async () => {
    const results = await eslint.lintFiles([join(dir, 'a.ts'), join(dir, 'b.ts')])
    for (const r of results) expect(r.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle')
  })

  it('lets a circle closed only by a type import pass (erased at build: test/build/import-cycles.test.ts has it)', async () => {
    const results = await eslint.lintFiles([join(dir, 'c.ts'), join(dir, 'd.ts')])
    for (const r of results) expect(r.messages.map((m) => m.ruleId)).not.toContain('import-x/no-cycle')
  })
})
