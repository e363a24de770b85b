/** The sandbox's own key pairs: every private key is 32 bytes, also the one in 256 that starts with a zero byte. */
import { createECDH } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keyPair, newKeyedAddress } from '../../../../src/main/sandbox/chain/keys'
import { address } from 'liquidjs-lib'

describe('keyPair', () => {
  it('returns 32-byte private keys matching their public keys, including those with leading zero bytes', () => {
    let leadingZero = 0
    for (let i = 0; i < 4_000; i++) {
      const k = keyPair()
      expect(k.priv).toHaveLength(32)
      if (k.priv[0] === 0) {
        leadingZero++
        const again = createECDH('secp256k1')
        again.setPrivateKey(k.priv)
        expect(again.getPublicKey(null, 'compressed').equals(k.pub)).toBe(true)
      }
    }
    // 4,000 draws without one such key happen about once in 6·10^6 runs: the case above was exercised.
    expect(leadingZero).toBeGreaterThan(0)
  })

  it('a keyed address carries the blinding public key of the private key it returns', () => {
    const a = newKeyedAddress()
    const ecdh = createECDH('secp256k1')
    ecdh.setPrivateKey(a.blindingPrivateKey)
    expect(
      address.fromConfidential(a.address).blindingKey.equals(ecdh.getPublicKey(null, 'compressed')),
    ).toBe(true)
  })
})
