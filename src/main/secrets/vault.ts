/**
 * The secret vault: client secrets, legacy tokens, team ledger passwords and the export signing key. Electron-free; the OS keyring
 * comes in through `VaultCrypto` (src/main/secrets/safe-storage.ts in the app, a fake in tests).
 *
 * Nothing here logs, and no thrown error or warning carries a secret value (nor a key name taken from
 * untrusted input: a caller that swapped key and value by mistake must not leak either).
 */
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { PROFILE_ID_PATTERN } from '../../shared/profile'
import { teamLedgerPasswordKey } from '../../shared/team-ledger'
import { errnoCode, moveAside, writeFileAtomic } from './atomic-file'

export type SecretKey =
  | `profile:${string}:clientSecret`
  | `profile:${string}:legacyToken`
  | `profile:${string}:walletDescriptor`
  | `team-ledger:${string}:password`
  | 'export:signingKey'

/** `walletDescriptor`: the treasury wallet's CT descriptor (issue #27); it reveals the whole wallet history. */
export type ProfileSecretKind = 'clientSecret' | 'legacyToken' | 'walletDescriptor'

export interface VaultCrypto {
  isEncryptionAvailable(): boolean
  /** e.g. 'gnome_libsecret', 'kwallet', 'basic_text', 'dpapi', 'keychain', 'unknown' */
  backend(): string
  encryptString(s: string): Buffer
  decryptString(b: Buffer): string
}

/**
 * Why the vault is (not) persistent. `file_unreadable`: the secrets file exists but could be neither read nor
 * moved aside, so the vault refuses to overwrite it and keeps this session's secrets in memory.
 */
export type VaultReason = 'ok' | 'encryption_unavailable' | 'basic_text_backend' | 'file_unreadable'

export type VaultWarning =
  /** The file was not a vault file; it was renamed, not overwritten, and the vault started empty. */
  | { code: 'corrupt_file_moved_aside'; movedTo: string }
  /** The OS keyring could not decrypt this entry; `get` returns null for it (its ciphertext is kept on disk). */
  | { code: 'undecryptable_entry'; key: SecretKey }
  /** Not persistent this session, and a secrets file from an earlier session exists: it was left untouched. */
  | { code: 'existing_file_not_read' }
  | { code: 'file_unreadable'; errno: string }

export interface Vault {
  /** false → secrets live in memory for this session only */
  readonly persistent: boolean
  readonly reason: VaultReason
  /** What happened on open, for the UI and the log. Never a secret value. */
  readonly warnings: readonly VaultWarning[]
  get(key: SecretKey): string | null
  set(key: SecretKey, value: string): void
  delete(key: SecretKey): void
  keys(): SecretKey[]
}

export type VaultErrorCode = 'invalid_key' | 'invalid_value' | 'encrypt_failed' | 'write_failed'

export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'VaultError'
  }
}

/** An Ed25519 PEM is ~120 characters and a legacy JWT a few hundred; this only stops accidents. */
export const SECRET_MAX_LENGTH = 16_384
/** A vault holding a few dozen secrets is a few KiB; anything this big was not written by us. */
const FILE_MAX_BYTES = 1024 * 1024

const SECRET_KEY_PATTERN = new RegExp(
  `^(?:profile:${PROFILE_ID_PATTERN.source.slice(1, -1)}:(?:clientSecret|legacyToken|walletDescriptor)|team-ledger:${PROFILE_ID_PATTERN.source.slice(1, -1)}:password|export:signingKey)$`,
)

export function isSecretKey(key: unknown): key is SecretKey {
  return typeof key === 'string' && SECRET_KEY_PATTERN.test(key)
}

export function profileSecretKey(profileId: string, kind: ProfileSecretKind): SecretKey {
  const key = `profile:${profileId}:${kind}` as const
  if (!isSecretKey(key)) throw new VaultError('invalid_key', 'Not a valid profile id for a vault key')
  return key
}

/** The team ledger role's password of a connection profile (issue #16), under `teamLedgerPasswordKey`'s name. */
export function teamLedgerSecretKey(profileId: string): SecretKey {
  const key = teamLedgerPasswordKey(profileId)
  if (!isSecretKey(key)) throw new VaultError('invalid_key', 'Not a valid profile id for a vault key')
  return key
}

function checkKey(key: unknown): asserts key is SecretKey {
  if (!isSecretKey(key)) throw new VaultError('invalid_key', 'Not a valid vault key')
}

function checkValue(value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > SECRET_MAX_LENGTH) {
    throw new VaultError('invalid_value', 'A secret must be a non-empty string of bounded length')
  }
}

export function createMemoryVault(
  o: { reason?: VaultReason; warnings?: readonly VaultWarning[] } = {},
): Vault {
  const values = new Map<SecretKey, string>()
  const warnings = Object.freeze([...(o.warnings ?? [])])
  return {
    persistent: false,
    reason: o.reason ?? 'ok',
    warnings,
    get(key) {
      return values.get(key) ?? null
    },
    set(key, value) {
      checkKey(key)
      checkValue(value)
      values.set(key, value)
    },
    delete(key) {
      checkKey(key)
      values.delete(key)
    },
    keys() {
      return [...values.keys()]
    },
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The file read back is a trust boundary: anything else is "corrupt" and moved aside. */
const vaultFileSchema = z.strictObject({
  version: z.literal(1),
  secrets: z.record(
    z.string().refine((k): boolean => isSecretKey(k)),
    z.string().min(4).regex(BASE64),
  ),
})
type VaultFile = z.infer<typeof vaultFileSchema>

type Loaded =
  | { kind: 'absent' }
  | { kind: 'ok'; file: VaultFile }
  | { kind: 'corrupt' }
  | { kind: 'unreadable'; errno: string }

function load(file: string): Loaded {
  let raw: Buffer
  try {
    raw = readFileSync(file)
  } catch (e) {
    const errno = errnoCode(e)
    return errno === 'ENOENT' ? { kind: 'absent' } : { kind: 'unreadable', errno }
  }
  if (raw.length > FILE_MAX_BYTES) return { kind: 'corrupt' }
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    return { kind: 'corrupt' }
  }
  const parsed = vaultFileSchema.safeParse(json)
  return parsed.success ? { kind: 'ok', file: parsed.data } : { kind: 'corrupt' }
}

function encryptionState(crypto: VaultCrypto): VaultReason {
  try {
    if (!crypto.isEncryptionAvailable()) return 'encryption_unavailable'
    // Chromium's basic_text "encryption" uses a key hard-coded in the browser: as good as plain text on disk.
    if (crypto.backend() === 'basic_text') return 'basic_text_backend'
    return 'ok'
  } catch {
    return 'encryption_unavailable'
  }
}

/**
 * A vault persisted in one JSON file `{ version: 1, secrets: { key: base64(ciphertext) } }`, written
 * atomically with mode 0600. Without real OS encryption nothing is written (nor read) and the secrets of this
 * session stay in memory.
 */
export function openFileVault(o: { file: string; crypto: VaultCrypto; now?: () => Date }): Vault {
  const now = o.now ?? (() => new Date())
  const state = encryptionState(o.crypto)
  if (state !== 'ok') {
    return createMemoryVault({
      reason: state,
      warnings: existsSync(o.file) ? [{ code: 'existing_file_not_read' }] : [],
    })
  }

  const warnings: VaultWarning[] = []
  const loaded = load(o.file)
  let stored: VaultFile['secrets'] = {}
  if (loaded.kind === 'ok') {
    stored = loaded.file.secrets
  } else if (loaded.kind === 'unreadable') {
    return createMemoryVault({
      reason: 'file_unreadable',
      warnings: [{ code: 'file_unreadable', errno: loaded.errno }],
    })
  } else if (loaded.kind === 'corrupt') {
    try {
      warnings.push({ code: 'corrupt_file_moved_aside', movedTo: moveAside(o.file, now()) })
    } catch (e) {
      return createMemoryVault({
        reason: 'file_unreadable',
        warnings: [{ code: 'file_unreadable', errno: errnoCode(e) }],
      })
    }
  }

  const values = new Map<SecretKey, string>()
  // Ciphertexts as stored, so a write re-encrypts only the value that changed.
  const sealed = new Map<SecretKey, string>()
  // Kept on disk, not offered: a keyring that comes back (another desktop session, a restored keychain) can
  // still read them. `set` or `delete` of the key replaces them.
  const undecryptable = new Map<SecretKey, string>()
  for (const [k, b64] of Object.entries(stored)) {
    const key = k as SecretKey
    let value: string
    try {
      value = o.crypto.decryptString(Buffer.from(b64, 'base64'))
    } catch {
      value = ''
    }
    if (typeof value === 'string' && value !== '' && value.length <= SECRET_MAX_LENGTH) {
      values.set(key, value)
      sealed.set(key, b64)
    } else {
      undecryptable.set(key, b64)
      warnings.push({ code: 'undecryptable_entry', key })
    }
  }

  function persist(next: Map<SecretKey, string>): void {
    const secrets: Record<string, string> = {}
    for (const key of [...next.keys()].sort()) secrets[key] = next.get(key) as string
    const body: VaultFile = { version: 1, secrets }
    try {
      writeFileAtomic(o.file, `${JSON.stringify(body, null, 2)}\n`, 0o600)
    } catch (e) {
      throw new VaultError('write_failed', `Could not write the secrets file (${errnoCode(e)})`)
    }
  }

  function onDisk(): Map<SecretKey, string> {
    return new Map([...undecryptable, ...sealed])
  }

  return {
    persistent: true,
    reason: 'ok',
    warnings: Object.freeze(warnings),
    get(key) {
      return values.get(key) ?? null
    },
    set(key, value) {
      checkKey(key)
      checkValue(value)
      if (values.get(key) === value) return
      let b64: string
      try {
        b64 = o.crypto.encryptString(value).toString('base64')
      } catch {
        // The keyring's own error text is not ours to vouch for; it might quote its input.
        throw new VaultError('encrypt_failed', 'The operating system could not encrypt the secret')
      }
      const next = onDisk()
      next.set(key, b64)
      // Memory changes only after the file did: a failed write leaves the vault as it was.
      persist(next)
      undecryptable.delete(key)
      sealed.set(key, b64)
      values.set(key, value)
    },
    delete(key) {
      checkKey(key)
      if (!sealed.has(key) && !undecryptable.has(key)) return
      const next = onDisk()
      next.delete(key)
      persist(next)
      undecryptable.delete(key)
      sealed.delete(key)
      values.delete(key)
    },
    keys() {
      return [...values.keys()]
    },
  }
}
