import { execFileSync, spawnSync } from 'node:child_process'
import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  canonicalManifestBytes,
  generateSigningKeyPair,
  keyFingerprint,
} from '../../../src/main/records/index'
import {
  isFingerprint,
  normalizeFingerprint,
  rawPublicKey,
  signingKey,
  SigningKeyError,
} from '../../../src/main/records/sign'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, SIGNER, track } from './helpers'

describe('keys and fingerprints', () => {
  it('fingerprint: SHA-256 of the raw 32-byte key, first 16 bytes, hex in 8 groups of 4', () => {
    const fp = keyFingerprint(SIGNER.publicKeyPem)
    expect(fp).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){7}$/)
    const raw = rawPublicKey(SIGNER.publicKeyPem)
    expect(raw).toHaveLength(32)
    // The raw key is the last 32 bytes of the SPKI DER (RFC 8410).
    const der = createPublicKey(SIGNER.publicKeyPem).export({ format: 'der', type: 'spki' })
    expect(der.subarray(-32).equals(raw)).toBe(true)
    expect(fp.replace(/ /g, '')).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 32))
    expect(keyFingerprint(generateSigningKeyPair().publicKeyPem)).not.toBe(fp)
    expect(isFingerprint(fp.toUpperCase().replace(/ /g, ':'))).toBe(true)
    expect(normalizeFingerprint(' AB12:cd34 ')).toBe('ab12cd34')
    expect(isFingerprint('ab12')).toBe(false)
  })

  it('refuses keys that are not Ed25519 or do not belong together, without echoing them', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const ecPair = {
      privateKeyPem: ec.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      publicKeyPem: ec.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    }
    expect(() => signingKey(ecPair)).toThrow(/not Ed25519/)
    expect(() => keyFingerprint(ecPair.publicKeyPem)).toThrow(SigningKeyError)
    const mismatch = { ...SIGNER, publicKeyPem: generateSigningKeyPair().publicKeyPem }
    expect(() => signingKey(mismatch)).toThrow('public key does not belong to the private key')
    expect(() => signingKey({ ...SIGNER, privateKeyPem: SIGNER.privateKeyPem.slice(0, 60) })).toThrow(
      /^private key is not a PEM key$/,
    )
  })
})

describe('the signature, checked the way docs/RECORDS.md tells an auditor', () => {
  it('node: canonical bytes + crypto.verify', async () => {
    const { ledger } = seededLedger(makeRecords(10))
    track(ledger)
    const res = await exportTo(ledger)
    const m = JSON.parse(fs.readFileSync(res.manifestPath, 'utf8')) as Record<string, unknown>
    const ok = verify(
      null,
      canonicalManifestBytes(m),
      m.publicKey as string,
      Buffer.from(m.signature as string, 'base64'),
    )
    expect(ok).toBe(true)
  })

  const hasTools =
    spawnSync('python3', ['--version']).status === 0 && spawnSync('openssl', ['version']).status === 0
  it.skipIf(!hasTools)(
    'python3 json.dumps(sort_keys) gives the same bytes, and openssl verifies them',
    async () => {
      const { ledger } = seededLedger(makeRecords(10, { profile: 'São Paulo — filial' }))
      track(ledger)
      const res = await exportTo(ledger, {
        profile: { name: 'Produção "São Paulo" \\ 😀', network: 'liquid' },
        filter: { text: 'joão' },
      })
      const work = tempDir()
      const py = [
        'import json,base64,sys',
        'm=json.load(open(sys.argv[1],encoding="utf-8"))',
        'sig=m.pop("signature")',
        'open(sys.argv[2]+"/canonical.json","wb").write(json.dumps(m,sort_keys=True,separators=(",",":"),ensure_ascii=False).encode("utf-8"))',
        'open(sys.argv[2]+"/signature.bin","wb").write(base64.b64decode(sig))',
        'open(sys.argv[2]+"/public.pem","w").write(m["publicKey"])',
      ].join('\n')
      execFileSync('python3', ['-c', py, res.manifestPath, work])
      const m = JSON.parse(fs.readFileSync(res.manifestPath, 'utf8')) as Record<string, unknown>
      expect(fs.readFileSync(path.join(work, 'canonical.json')).equals(canonicalManifestBytes(m))).toBe(true)
      const out = execFileSync('openssl', [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        path.join(work, 'public.pem'),
        '-rawin',
        '-in',
        path.join(work, 'canonical.json'),
        '-sigfile',
        path.join(work, 'signature.bin'),
      ]).toString()
      expect(out).toMatch(/Signature Verified Successfully/)
      // And sha256sum-style hashes match the manifest.
      for (const f of m.files as Array<{ name: string; sha256: string }>) {
        const got = execFileSync('openssl', [
          'dgst',
          '-sha256',
          '-r',
          path.join(res.folder, f.name),
        ]).toString()
        expect(got.split(' ')[0]).toBe(f.sha256)
      }
    },
  )
})

describe('docs/RECORDS.md "By hand" procedures, run as written', () => {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/RECORDS.md'), 'utf8')
  const byHand = doc.slice(doc.indexOf('### By hand'), doc.indexOf('## Offline review'))
  const blocks = [...byHand.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? '')
      .split('\n')
      .map((l) => l.replace(/^ {3}/, ''))
      .join('\n'),
  )
  const hasTools =
    spawnSync('python3', ['--version']).status === 0 && spawnSync('openssl', ['version']).status === 0

  it('the node one-liner verifies an intact export and flags a tampered one', async () => {
    const { ledger } = seededLedger(makeRecords(10))
    track(ledger)
    const res = await exportTo(ledger)
    const node = blocks.find((b) => b.startsWith('node -e'))!
    const run = (): string =>
      execFileSync('sh', ['-c', node], {
        cwd: res.folder,
        env: { ...process.env, PATH: path.dirname(process.execPath) + ':' + (process.env.PATH ?? '') },
      }).toString()
    expect(run()).toBe(
      `signature OK - signer ${keyFingerprint(SIGNER.publicKeyPem)}\nrecords.csv OK\nrecords.json OK\naudit.jsonl OK\nanchors.jsonl OK\nreport.html OK\n`,
    )
    const csv = path.join(res.folder, 'records.csv')
    fs.appendFileSync(csv, 'x')
    expect(run()).toContain('records.csv MISMATCH')
  })

  it.skipIf(!hasTools)('the python + openssl steps verify the signature', async () => {
    const { ledger } = seededLedger(makeRecords(10))
    track(ledger)
    const res = await exportTo(ledger, { profile: { name: 'Produção "Sé" 😀', network: 'liquid' } })
    const py = blocks.find((b) => b.startsWith('python3'))!
    const out = execFileSync('sh', ['-c', py], { cwd: res.folder }).toString()
    expect(out).toMatch(/Signature Verified Successfully/)
  })
})
