import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import type { VaultCrypto } from '../../../src/main/secrets/vault'

/**
 * AES-256-GCM under a key derived from `keyName`: a different keyName is "another keyring" and cannot decrypt.
 * Counts calls so tests can assert what was (not) encrypted.
 */
export function fakeCrypto(
  o: { available?: boolean; backend?: string; keyName?: string; failEncryptWith?: (s: string) => Error } = {},
): VaultCrypto & { calls: { encrypt: number; decrypt: number } } {
  const key = createHash('sha256')
    .update(o.keyName ?? 'test-keyring')
    .digest()
  const calls = { encrypt: 0, decrypt: 0 }
  return {
    calls,
    isEncryptionAvailable: () => o.available ?? true,
    backend: () => o.backend ?? 'gnome_libsecret',
    encryptString(s) {
      calls.encrypt += 1
      if (o.failEncryptWith) throw o.failEncryptWith(s)
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([c.update(s, 'utf8'), c.final()])
      return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body])
    },
    decryptString(b) {
      calls.decrypt += 1
      if (b.length < 31 || b.subarray(0, 3).toString() !== 'v10') throw new Error('bad ciphertext header')
      const d = createDecipheriv('aes-256-gcm', key, b.subarray(3, 15))
      d.setAuthTag(b.subarray(15, 31))
      return Buffer.concat([d.update(b.subarray(31)), d.final()]).toString('utf8')
    },
  }
}
