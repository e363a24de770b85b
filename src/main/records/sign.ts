/**
 * The installation's export key: Ed25519 (node:crypto). The private key arrives as PEM from the vault, is turned
 * into a KeyObject only to sign, and is never written, logged or put in an error message.
 *
 * Fingerprint (shown in Settings and printed by the verifier, for comparison over the phone or on paper):
 * SHA-256 of the raw 32-byte public key, first 16 bytes, lower-case hex, groups of 4 separated by one space:
 * "ab12 cd34 ef56 7890 ab12 cd34 ef56 7890". 128 bits: a second key with the same fingerprint cannot be made.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto'

export interface SigningKeyPair {
  /** PKCS#8 PEM. */
  privateKeyPem: string
  /** SPKI PEM: what the manifest carries. */
  publicKeyPem: string
}

export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError'
}

export function generateSigningKeyPair(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  }
}

function publicKeyObject(publicKeyPem: string): KeyObject {
  let key: KeyObject
  try {
    key = createPublicKey({ key: publicKeyPem, format: 'pem' })
  } catch {
    throw new SigningKeyError('public key is not a PEM key')
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError('public key is not Ed25519')
  return key
}

/** The 32 raw bytes of an Ed25519 public key (RFC 8032), which is what the fingerprint hashes. */
export function rawPublicKey(publicKeyPem: string): Buffer {
  const jwk = publicKeyObject(publicKeyPem).export({ format: 'jwk' })
  const raw = Buffer.from(jwk.x ?? '', 'base64url')
  if (raw.length !== 32) throw new SigningKeyError('public key is not 32 bytes')
  return raw
}

export function keyFingerprint(publicKeyPem: string): string {
  const hex = createHash('sha256').update(rawPublicKey(publicKeyPem)).digest('hex').slice(0, 32)
  return hex.match(/.{4}/g)?.join(' ') ?? hex
}

/** "AB12:cd34 …" → "ab12cd34…": what a person types when comparing, spaces and case aside. */
export function normalizeFingerprint(input: string): string {
  return input.replace(/[\s:-]/g, '').toLowerCase()
}

export function isFingerprint(input: string): boolean {
  return /^[0-9a-f]{32}$/.test(normalizeFingerprint(input))
}

/**
 * Checks the pair before anything is written: an export signed with a key that does not match the public key it
 * carries would fail verification, and the mistake would only show at the auditor's.
 */
export function signingKey(pair: SigningKeyPair): KeyObject {
  let key: KeyObject
  try {
    key = createPrivateKey({ key: pair.privateKeyPem, format: 'pem' })
  } catch {
    // Never the key or the library's message (which may quote input): only that it failed.
    throw new SigningKeyError('private key is not a PEM key')
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError('private key is not Ed25519')
  const derived = createPublicKey(key).export({ format: 'der', type: 'spki' })
  const given = publicKeyObject(pair.publicKeyPem).export({ format: 'der', type: 'spki' })
  if (!derived.equals(given)) throw new SigningKeyError('public key does not belong to the private key')
  return key
}

/** Ed25519 signature (64 bytes) of `data`, base64. */
export function signBytes(key: KeyObject, data: Buffer): string {
  return sign(null, data, key).toString('base64')
}

/** False for a bad signature; throws SigningKeyError for an unusable public key. */
export function verifyBytes(publicKeyPem: string, data: Buffer, signatureBase64: string): boolean {
  const key = publicKeyObject(publicKeyPem)
  const sig = Buffer.from(signatureBase64, 'base64')
  // Buffer.from ignores characters outside the alphabet; an exact round trip makes any edit count.
  if (sig.length !== 64 || sig.toString('base64') !== signatureBase64) return false
  return verify(null, data, key, sig)
}
