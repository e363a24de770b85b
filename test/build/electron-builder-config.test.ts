/**
 * electron-builder.yml as electron-builder 26 itself loads and validates it (its own config loader and JSON
 * schema), then the settings the packaged app's safety depends on: every fuse, the metadata, the Linux targets.
 * The installers themselves cannot be built here (electron-builder downloads the Electron binary even for `--dir`).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

const repo = resolve(__dirname, '../..')

interface BuilderConfig {
  electronFuses?: Record<string, boolean> | null
  asar?: boolean
  files?: Array<{ filter: string[] }>
  extraResources?: unknown
  linux?: { target?: string[]; maintainer?: string; category?: string }
}
interface ConfigModule {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<BuilderConfig>
  validateConfiguration(config: BuilderConfig, debug: { isEnabled: boolean; add(): void }): Promise<void>
}

// app-builder-lib is electron-builder's own library: resolved from electron-builder, as its CLI does.
const fromBuilder = createRequire(require.resolve('electron-builder'))
const builderConfig = fromBuilder('app-builder-lib/out/util/config/config') as ConfigModule

let config: BuilderConfig
beforeAll(async () => {
  config = await builderConfig.getConfig(repo, join(repo, 'electron-builder.yml'), null)
  await builderConfig.validateConfiguration(config, { isEnabled: false, add: () => undefined })
})

describe('electron-builder.yml', () => {
  it('sets every fuse the packaged app relies on, each the safe way', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('rejects a misspelt fuse: the schema check above is real', async () => {
    const typo = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }
    await expect(
      builderConfig.validateConfiguration(typo, { isEnabled: false, add: () => undefined }),
    ).rejects.toThrow(/configuration\.electronFuses/)
  })

  it('ships only the build in an asar, with complete metadata', () => {
    expect(config.asar).toBe(true)
    expect(config.files).toEqual([{ filter: ['out/**', '!out/team-ledger/**', 'package.json'] }])
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      author?: { name?: string; email?: string }
      description?: string
      productName?: string
      main?: string
    }
    expect(pkg.author?.name).toBeTruthy()
    expect(pkg.author?.email).toMatch(/@/)
    expect(pkg.description?.length).toBeGreaterThan(20)
    expect(pkg.productName).toBe('Tesouraria DePix')
    expect(pkg.main).toBe('./out/main/index.js')
  })

  it('ships the built team-ledger tool outside the asar, where plain node can run it (issue #31)', () => {
    expect(config.extraResources).toEqual([{ from: 'out/team-ledger', to: 'team-ledger' }])
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(pkg.scripts.build).toContain('node scripts/build-team-ledger.mjs')
  })

  it('Linux: the .deb (which installs the AppArmor profile Ubuntu 24.04 needs) comes first', () => {
    expect(config.linux?.target?.[0]).toBe('deb')
    expect(config.linux?.maintainer).toMatch(/@/)
  })
})
