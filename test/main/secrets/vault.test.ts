import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createMemoryVault,
  isSecretKey,
  openFileVault,
  profileSecretKey,
  VaultError,
  type SecretKey,
  type Vault,
} from '../../../src/main/secrets/vault'
import { fakeCrypto } from './fake-crypto'

const SECRET = 'cs_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0'
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJl'
const K1: SecretKey = 'profile:acme:clientSecret'
const K2: SecretKey = 'profile:acme-2:legacyToken'
const K3: SecretKey = 'export:signingKey'
const isPosix = process.platform !== 'win32'

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vault-'))
  file = join(dir, 'secrets.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}

/** Everything an error could show: message, stack, own fields, cause. */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  return [e.message, e.stack ?? '', JSON.stringify(e), String(e.cause ?? '')].join('\n')
}

describe('openFileVault with real encryption', () => {
  it('round-trips secrets across a reopen', () => {
    const crypto = fakeCrypto()
    const v1 = openFileVault({ file, crypto })
    expect(v1).toMatchObject({ persistent: true, reason: 'ok', warnings: [] })
    v1.set(K1, SECRET)
    v1.set(K2, TOKEN)
    v1.set(K3, '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n')

    const v2 = openFileVault({ file, crypto })
    expect(v2.get(K1)).toBe(SECRET)
    expect(v2.get(K2)).toBe(TOKEN)
    expect(v2.get(K3)).toContain('BEGIN PRIVATE KEY')
    expect(v2.keys().sort()).toEqual([K3, K1, K2].sort())
    expect(v2.warnings).toEqual([])
  })

  it('writes the file with mode 0600 and leaves no temp files', () => {
    const v = openFileVault({ file, crypto: fakeCrypto() })
    v.set(K1, SECRET)
    v.set(K1, `${SECRET}-rotated`)
    if (isPosix) expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['secrets.json'])
  })

  it('tightens the mode of a file that was created looser', () => {
    if (!isPosix) return
    const v = openFileVault({ file, crypto: fakeCrypto() })
    v.set(K1, SECRET)
    chmodSync(file, 0o644)
    openFileVault({ file, crypto: fakeCrypto() }).set(K2, TOKEN)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('never puts the plaintext (nor its base64) in the file', () => {
    const v = openFileVault({ file, crypto: fakeCrypto() })
    v.set(K1, SECRET)
    v.set(K2, TOKEN)
    const text = readFileSync(file, 'utf8')
    for (const s of [SECRET, TOKEN]) {
      expect(text).not.toContain(s)
      expect(text).not.toContain(Buffer.from(s).toString('base64'))
    }
    expect(JSON.parse(text)).toMatchObject({ version: 1, secrets: { [K1]: expect.any(String) } })
  })

  it('deletes from disk', () => {
    const crypto = fakeCrypto()
    const v = openFileVault({ file, crypto })
    v.set(K1, SECRET)
    v.set(K2, TOKEN)
    v.delete(K1)
    v.delete(K1)
    expect(v.get(K1)).toBeNull()
    const again = openFileVault({ file, crypto })
    expect(again.keys()).toEqual([K2])
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).secrets)).toEqual([K2])
  })

  it('creates no file until something is stored', () => {
    const v = openFileVault({ file, crypto: fakeCrypto() })
    expect(v.get(K1)).toBeNull()
    v.delete(K1)
    expect(existsSync(file)).toBe(false)
  })

  it('matches a model under any sequence of sets and deletes, across reopens', () => {
    const keys: SecretKey[] = [K1, K2, K3, 'profile:b:clientSecret']
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.constantFrom(...keys),
        value: fc.string({ minLength: 1 }),
      }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...keys) }),
      fc.constant({ kind: 'reopen' as const }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        rmSync(file, { force: true })
        const crypto = fakeCrypto()
        const model = new Map<SecretKey, string>()
        let v: Vault = openFileVault({ file, crypto })
        for (const o of ops) {
          if (o.kind === 'set') {
            v.set(o.key, o.value)
            model.set(o.key, o.value)
          } else if (o.kind === 'delete') {
            v.delete(o.key)
            model.delete(o.key)
          } else {
            v = openFileVault({ file, crypto })
          }
          for (const k of keys) expect(v.get(k)).toBe(model.get(k) ?? null)
        }
      }),
      { numRuns: 60 },
    )
  })
})

describe('openFileVault without real encryption', () => {
  for (const [label, crypto, reason] of [
    ['the Linux basic_text backend', () => fakeCrypto({ backend: 'basic_text' }), 'basic_text_backend'],
    ['encryption unavailable', () => fakeCrypto({ available: false }), 'encryption_unavailable'],
  ] as const) {
    it(`${label}: keeps secrets in memory only and writes nothing`, () => {
      const c = crypto()
      const v = openFileVault({ file, crypto: c })
      expect(v).toMatchObject({ persistent: false, reason, warnings: [] })
      v.set(K1, SECRET)
      v.set(K2, TOKEN)
      v.delete(K2)
      expect(v.get(K1)).toBe(SECRET)
      expect(v.keys()).toEqual([K1])
      expect(existsSync(file)).toBe(false)
      expect(readdirSync(dir)).toEqual([])
      expect(c.calls.encrypt).toBe(0)
      // Next session: nothing survived, by design.
      expect(openFileVault({ file, crypto: crypto() }).get(K1)).toBeNull()
    })

    it(`${label}: leaves an existing vault file untouched and says so`, () => {
      openFileVault({ file, crypto: fakeCrypto() }).set(K1, SECRET)
      const before = readFileSync(file)
      const c = crypto()
      const v = openFileVault({ file, crypto: c })
      expect(v.warnings).toEqual([{ code: 'existing_file_not_read' }])
      expect(v.get(K1)).toBeNull()
      v.set(K1, 'another-secret-value')
      expect(readFileSync(file).equals(before)).toBe(true)
      expect(c.calls.decrypt).toBe(0)
    })
  }

  it('treats a keyring that throws while being asked as unavailable', () => {
    const c = fakeCrypto()
    c.isEncryptionAvailable = () => {
      throw new Error('dbus gone')
    }
    expect(openFileVault({ file, crypto: c })).toMatchObject({
      persistent: false,
      reason: 'encryption_unavailable',
    })
  })
})

describe('openFileVault reading back a damaged file', () => {
  const at = new Date('2025-03-04T05:06:07.089Z')

  for (const [label, content] of [
    ['not JSON', '{"version":1,"secrets":{'],
    ['JSON of the wrong shape', '{"version":1,"secrets":[]}'],
    ['an unknown version', '{"version":2,"secrets":{}}'],
    ['a key that is not a vault key', '{"version":1,"secrets":{"password":"AAAA"}}'],
    ['a value that is not base64', '{"version":1,"secrets":{"export:signingKey":"not base64!"}}'],
    ['an extra top-level field', '{"version":1,"secrets":{},"plain":"x"}'],
  ] as const) {
    it(`moves aside ${label} instead of overwriting it`, () => {
      writeFileSync(file, content)
      const v = openFileVault({ file, crypto: fakeCrypto(), now: () => at })
      const movedTo = `${file}.corrupt-2025-03-04T05-06-07-089Z`
      expect(v).toMatchObject({ persistent: true, reason: 'ok' })
      expect(v.warnings).toEqual([{ code: 'corrupt_file_moved_aside', movedTo }])
      expect(v.keys()).toEqual([])
      expect(readFileSync(movedTo, 'utf8')).toBe(content)
      expect(existsSync(file)).toBe(false)
      v.set(K1, SECRET)
      expect(openFileVault({ file, crypto: fakeCrypto() }).get(K1)).toBe(SECRET)
      expect(readFileSync(movedTo, 'utf8')).toBe(content)
    })
  }

  it('never overwrites an earlier moved-aside file', () => {
    writeFileSync(file, 'first')
    openFileVault({ file, crypto: fakeCrypto(), now: () => at })
    writeFileSync(file, 'second')
    const v = openFileVault({ file, crypto: fakeCrypto(), now: () => at })
    expect(v.warnings).toEqual([
      { code: 'corrupt_file_moved_aside', movedTo: `${file}.corrupt-2025-03-04T05-06-07-089Z-1` },
    ])
    expect(readFileSync(`${file}.corrupt-2025-03-04T05-06-07-089Z`, 'utf8')).toBe('first')
  })

  it('does not touch a file it cannot read, and stays in memory', () => {
    mkdirSync(file)
    const v = openFileVault({ file, crypto: fakeCrypto() })
    expect(v).toMatchObject({ persistent: false, reason: 'file_unreadable' })
    expect(v.warnings).toEqual([{ code: 'file_unreadable', errno: 'EISDIR' }])
    v.set(K1, SECRET)
    expect(v.get(K1)).toBe(SECRET)
    expect(statSync(file).isDirectory()).toBe(true)
  })

  it('drops an entry that does not decrypt, keeps the others, and keeps its ciphertext on disk', () => {
    openFileVault({ file, crypto: fakeCrypto({ keyName: 'other-session' }) }).set(K2, TOKEN)
    const foreign = JSON.parse(readFileSync(file, 'utf8')).secrets[K2] as string
    const crypto = fakeCrypto()
    const body = {
      version: 1,
      secrets: { [K1]: crypto.encryptString(SECRET).toString('base64'), [K2]: foreign },
    }
    writeFileSync(file, JSON.stringify(body))

    const v = openFileVault({ file, crypto })
    expect(v.persistent).toBe(true)
    expect(v.warnings).toEqual([{ code: 'undecryptable_entry', key: K2 }])
    expect(v.get(K1)).toBe(SECRET)
    expect(v.get(K2)).toBeNull()
    expect(v.keys()).toEqual([K1])

    v.set(K3, 'signing-key-material')
    expect(JSON.parse(readFileSync(file, 'utf8')).secrets[K2]).toBe(foreign)
    // The keyring that wrote it can still read it.
    expect(openFileVault({ file, crypto: fakeCrypto({ keyName: 'other-session' }) }).get(K2)).toBe(TOKEN)
    // Replacing the key replaces the unreadable entry.
    v.set(K2, 'fresh-token-value')
    expect(openFileVault({ file, crypto }).get(K2)).toBe('fresh-token-value')
    expect(openFileVault({ file, crypto }).warnings).toEqual([])
  })

  it('warnings name keys, never values', () => {
    openFileVault({ file, crypto: fakeCrypto({ keyName: 'other' }) }).set(K1, SECRET)
    const v = openFileVault({ file, crypto: fakeCrypto() })
    expect(JSON.stringify(v.warnings)).not.toContain(SECRET)
  })
})

describe('vault errors never carry a secret', () => {
  it('an encryption failure that quotes its input is not passed on', () => {
    const crypto = fakeCrypto({ failEncryptWith: (s) => new Error(`cannot encrypt "${s}"`) })
    const v = openFileVault({ file, crypto })
    const e = thrown(() => v.set(K1, SECRET))
    expect(e).toBeInstanceOf(VaultError)
    expect((e as VaultError).code).toBe('encrypt_failed')
    expect(errorText(e)).not.toContain(SECRET)
    expect(v.get(K1)).toBeNull()
    expect(existsSync(file)).toBe(false)
  })

  it('a failed write throws write_failed and leaves the vault as it was', () => {
    const v = openFileVault({ file, crypto: fakeCrypto() })
    v.set(K2, TOKEN)
    // Swap the file for a non-empty directory: the final rename cannot replace it.
    rmSync(file)
    mkdirSync(file)
    writeFileSync(join(file, 'x'), '')
    const e = thrown(() => v.set(K1, SECRET))
    expect(e).toBeInstanceOf(VaultError)
    expect((e as VaultError).code).toBe('write_failed')
    expect((e as VaultError).message).toMatch(/\([A-Z]+\)$/)
    expect(errorText(e)).not.toContain(SECRET)
    expect(v.get(K1)).toBeNull()
    expect(v.get(K2)).toBe(TOKEN)
    expect(readdirSync(dir)).toEqual(['secrets.json'])
  })

  it('a secret passed where the key goes is refused without being echoed', () => {
    for (const v of [openFileVault({ file, crypto: fakeCrypto() }), createMemoryVault()]) {
      const e = thrown(() => v.set(SECRET as SecretKey, 'x'))
      expect((e as VaultError).code).toBe('invalid_key')
      expect(errorText(e)).not.toContain(SECRET)
    }
  })

  it('refuses empty and oversized values without echoing them', () => {
    const v = openFileVault({ file, crypto: fakeCrypto() })
    expect((thrown(() => v.set(K1, '')) as VaultError).code).toBe('invalid_value')
    const huge = `${SECRET}${'x'.repeat(20_000)}`
    const e = thrown(() => v.set(K1, huge))
    expect((e as VaultError).code).toBe('invalid_value')
    expect(errorText(e)).not.toContain(SECRET)
  })
})

describe('vault keys', () => {
  it('accepts exactly the three key families with slug profile ids', () => {
    expect(isSecretKey('profile:acme:clientSecret')).toBe(true)
    expect(isSecretKey('profile:acme-2:legacyToken')).toBe(true)
    expect(isSecretKey('export:signingKey')).toBe(true)
    for (const bad of [
      'profile::clientSecret',
      'profile:Acme:clientSecret',
      'profile:a:b:clientSecret',
      'profile:acme:refreshToken',
      'export:signingkey',
      ' profile:acme:clientSecret',
      'profile:-acme:clientSecret',
    ]) {
      expect(isSecretKey(bad), bad).toBe(false)
    }
  })

  it('profileSecretKey builds keys and refuses ids that are not slugs', () => {
    expect(profileSecretKey('acme', 'legacyToken')).toBe('profile:acme:legacyToken')
    expect(() => profileSecretKey('a:b', 'clientSecret')).toThrow(VaultError)
  })
})

describe('createMemoryVault', () => {
  it('is a non-persistent vault with the same rules', () => {
    const v = createMemoryVault()
    expect(v).toMatchObject({ persistent: false, reason: 'ok', warnings: [] })
    v.set(K1, SECRET)
    expect(v.get(K1)).toBe(SECRET)
    expect(v.keys()).toEqual([K1])
    v.delete(K1)
    expect(v.keys()).toEqual([])
  })
})
