import { describe, expect, it } from 'vitest'
import { checkLiquidAddress, generateLiquidAddress, LIQUID_NETWORKS } from '../../../src/main/liquid'

const PREFIX = {
  liquid: { confidential: 'lq1', plain: 'ex1' },
  testnet: { confidential: 'tlq1', plain: 'tex1' },
  regtest: { confidential: 'el1', plain: 'ert1' },
} as const

describe('generateLiquidAddress', () => {
  for (const network of LIQUID_NETWORKS) {
    for (const confidential of [true, false]) {
      it(`makes 100 distinct ${confidential ? 'confidential' : 'unconfidential'} ${network} p2wpkh addresses that pass checkLiquidAddress`, () => {
        const seen = new Set<string>()
        for (let i = 0; i < 100; i++) {
          const g = generateLiquidAddress(network, { confidential })
          seen.add(g.address)
          expect(g.address.startsWith(PREFIX[network][confidential ? 'confidential' : 'plain'])).toBe(true)
          expect(g.scriptPubKey).toMatch(/^0014[0-9a-f]{40}$/)
          expect(checkLiquidAddress(g.address, network)).toEqual({
            ok: true,
            address: g.address,
            network,
            confidential,
            kind: 'p2wpkh',
            scriptPubKey: g.scriptPubKey,
          })
          if (i % 10 === 0) {
            const other = LIQUID_NETWORKS.find((n) => n !== network) ?? 'liquid'
            expect(checkLiquidAddress(g.address, other)).toMatchObject({ ok: false, reason: 'wrong_network' })
          }
        }
        expect(seen.size).toBe(100)
      })
    }
  }

  it('is confidential by default', () => {
    for (const network of LIQUID_NETWORKS) {
      const g = generateLiquidAddress(network)
      expect(checkLiquidAddress(g.address, network)).toMatchObject({ ok: true, confidential: true })
    }
  })
})
