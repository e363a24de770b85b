/**
 * Builds the database administrator's `team-ledger` tool (src/main/ledger/team/cli.ts) into one self-contained
 * CommonJS file, out/team-ledger/team-ledger.cjs, that plain `node` ≥ 20 runs without the source tree, tsx or
 * node_modules (pg and zod are bundled in). electron-builder ships it as an extra resource (team-ledger/).
 *
 * CommonJS, not ESM: the desk import is loaded lazily (`import()` becomes a lazy `require`), so `node:sqlite` —
 * absent before Node 22.5, experimental after — is touched only by `team-ledger import`.
 */
import { build } from 'esbuild'
import { copyFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outDir = path.join(root, 'out', 'team-ledger')

export async function buildTeamLedger(dir = outDir) {
  mkdirSync(dir, { recursive: true })
  await build({
    entryPoints: [path.join(root, 'src/main/ledger/team/cli/bin.ts')],
    outfile: path.join(dir, 'team-ledger.cjs'),
    bundle: true,
    platform: 'node',
    // es2021 lowers class private fields and static blocks from bundled packages: the security scanner
    // (scripts/security.mjs, which walks out/) cannot parse them, as for out/main (electron.vite.config.ts).
    target: ['node20', 'es2021'],
    format: 'cjs',
    // pg's optional native binding is never used.
    external: ['pg-native'],
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'none',
    logLevel: 'warning',
  })
  copyFileSync(path.join(root, 'resources/team-ledger/setup.sql'), path.join(dir, 'setup.sql'))
  return path.join(dir, 'team-ledger.cjs')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildTeamLedger()
}
