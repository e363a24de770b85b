/** The wallet service for a live profile: the descriptor checked, kept only in the vault, refused ones not kept. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { DescriptorError } from '../../../src/main/wallet/descriptor'
import { WalletService } from '../../../src/main/wallet/service'
import type { Profile } from '../../../src/shared/profile'
import { mnemonicWords, singlesigMainnet } from './fixtures'

const dir = mkdtempSync(join(tmpdir(), 'wallet-service-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const live = { id: 'empresa', kind: 'live', network: 'liquid' } as Profile

function service() {
  const vault = createMemoryVault()
  const changes: string[] = []
  const logs: string[] = []
  const s = new WalletService({
    vault,
    dataDir: dir,
    now: () => Date.now(),
    sandbox: null,
    onChange: (id) => changes.push(id),
    log: (l) => logs.push(l),
  })
  return { s, vault, changes, logs }
}

describe('WalletService (live profile)', () => {
  it('not configured until a descriptor is set; a hostile one is refused and nothing is kept', () => {
    const { s, vault } = service()
    expect(s.view(live)).toEqual({ state: 'not_configured' })
    for (const text of [mnemonicWords(9), singlesigMainnet().replace(/^ct\(slip77\([0-9a-f]+\),/, '')]) {
      expect(() => s.setDescriptor(live, text)).toThrow(DescriptorError)
    }
    expect(vault.keys()).toEqual([])
    expect(s.view(live)).toEqual({ state: 'not_configured' })
  })

  it('a good descriptor is kept in the vault under the profile, normalized; views never carry it', () => {
    const { s, vault } = service()
    const v = s.setDescriptor(live, `\n${singlesigMainnet()}  `)
    expect(vault.get('profile:empresa:walletDescriptor')).toBe(singlesigMainnet())
    expect(v).toMatchObject({
      state: 'ready',
      multisig: false,
      lastScanAt: null,
      explorerTxUrl: 'https://blockstream.info/liquid/tx/',
    })
    expect(JSON.stringify(v)).not.toMatch(/slip77|xpub/)
    // A descriptor kept for another network (the profile was switched) shows as not configured, and says why in the log.
    const testnet = { ...live, network: 'testnet' } as Profile
    const other = service()
    other.vault.set('profile:empresa:walletDescriptor', singlesigMainnet())
    expect(other.s.view(testnet)).toEqual({ state: 'not_configured' })
    expect(other.logs.join('\n')).toContain('no longer fits')
    expect(other.logs.join('\n')).not.toContain('xpub')
  })

  it('clear forgets the descriptor', () => {
    const { s, vault } = service()
    s.setDescriptor(live, singlesigMainnet())
    expect(s.clear(live)).toEqual({ state: 'not_configured' })
    expect(vault.keys()).toEqual([])
    // No scan ran: no state file was written for it.
    expect(readdirSync(dir)).toEqual([])
  })
})
