/** This installation's Ed25519 export signing key: generated once, kept in the vault, never leaves main. */
import { z } from 'zod'
import { generateSigningKeyPair, keyFingerprint } from '../records'
import type { Vault } from '../secrets/vault'

const storedKeySchema = z.object({ privateKeyPem: z.string().min(1), publicKeyPem: z.string().min(1) })
export type SigningKey = z.infer<typeof storedKeySchema>

/** This installation's fingerprint if it has a key; null otherwise (never creates one). */
export function localFingerprint(vault: Vault): string | null {
  const raw = vault.get('export:signingKey')
  if (!raw) return null
  try {
    const parsed = storedKeySchema.safeParse(JSON.parse(raw))
    return parsed.success ? keyFingerprint(parsed.data.publicKeyPem) : null
  } catch {
    return null
  }
}

export function loadSigningKey(vault: Vault): SigningKey {
  const raw = vault.get('export:signingKey')
  if (raw) {
    try {
      const parsed = storedKeySchema.safeParse(JSON.parse(raw))
      if (parsed.success) return parsed.data
    } catch {
      // Unreadable: replaced below. Earlier exports stay verifiable with the public key in their manifest.
    }
  }
  const pair = generateSigningKeyPair()
  vault.set('export:signingKey', JSON.stringify(pair))
  return pair
}

export function publicKeyView(key: SigningKey): { fingerprint: string; publicKeyPem: string } {
  return { fingerprint: keyFingerprint(key.publicKeyPem), publicKeyPem: key.publicKeyPem }
}
