/**
 * The owner tool's connection rules (cli/connect.ts): libpq's sslmode meanings under the one rule the desks
 * follow — nothing leaves this computer without TLS — and where the CA comes from. The real connections are in
 * team-ledger-cli.test.ts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { SSL_MODES, effectiveTls, resolveTarget } from '../../../../../src/main/ledger/team/cli/connect'
import { CliError } from '../../../../../src/main/ledger/team/cli/errors'
import { scramVerifier } from '../../../../../src/main/ledger/team/cli/secrets'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-connect-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'

describe('effectiveTls', () => {
  const never = vi.fn(async () => null)
  it('keeps the encrypting modes as they are, for any host', async () => {
    for (const mode of ['require', 'verify-ca', 'verify-full'] as const) {
      expect(await effectiveTls(mode, 'db.example.com', never)).toBe(mode)
      expect(await effectiveTls(mode, 'localhost', never)).toBe(mode)
    }
  })

  it('allows plaintext only to loopback or a Unix socket', async () => {
    for (const host of ['db.example.com', '10.0.0.5', '127.0.0.2', 'localhost.example.com', '::2']) {
      await expect(effectiveTls('disable', host, never)).rejects.toBeInstanceOf(CliError)
      await expect(effectiveTls('disable', host, never)).rejects.toThrow(`refusing to connect to ${host}`)
    }
    for (const host of ['localhost', '127.0.0.1', '::1', '[::1]']) {
      expect(await effectiveTls('disable', host, never)).toBe('disable')
    }
    // libpq never encrypts a Unix socket, whatever the mode.
    expect(await effectiveTls('verify-full', '/var/run/postgresql', never)).toBe('disable')
  })

  it('prefer: encrypts when the server offers TLS, else plaintext only locally', async () => {
    expect(await effectiveTls('prefer', 'db.example.com', async () => true)).toBe('require')
    await expect(effectiveTls('prefer', 'db.example.com', async () => false)).rejects.toBeInstanceOf(CliError)
    await expect(effectiveTls('prefer', 'db.example.com', async () => null)).rejects.toBeInstanceOf(CliError)
    expect(await effectiveTls('prefer', 'localhost', async () => false)).toBe('disable')
  })

  it('allow: plaintext first locally; for a remote server straight to its encrypted attempt', async () => {
    expect(await effectiveTls('allow', 'localhost', never)).toBe('disable')
    expect(await effectiveTls('allow', 'db.example.com', never)).toBe('require')
    expect(never).not.toHaveBeenCalled()
  })
})

describe('resolveTarget', () => {
  const home = path.join(dir, 'home')
  fs.mkdirSync(home)
  const ca = path.join(dir, 'ca.crt')
  fs.writeFileSync(ca, PEM)

  it('defaults to verify-full, libpq variables next, flags first', () => {
    vi.stubEnv('HOME', home)
    expect(resolveTarget({}, { PGUSER: 'x' }, 'depix_team')).toMatchObject({
      host: 'localhost',
      port: 5432,
      database: 'depix_team',
      sslmode: 'verify-full',
      caSource: null,
    })
    const env = { PGHOST: 'a', PGPORT: '6000', PGUSER: 'u', PGDATABASE: 'd', PGSSLMODE: 'require' }
    expect(resolveTarget({}, env, 'depix_team')).toMatchObject({
      host: 'a',
      port: 6000,
      user: 'u',
      database: 'd',
      sslmode: 'require',
    })
    expect(resolveTarget({ host: 'b', sslmode: 'verify-ca' }, env, 'x')).toMatchObject({
      host: 'b',
      sslmode: 'verify-ca',
    })
    expect(() => resolveTarget({ sslmode: 'verify' }, {}, 'x')).toThrow('unknown sslmode verify')
    expect(() => resolveTarget({ port: '0' }, {}, 'x')).toThrow('invalid port 0')
    expect([...SSL_MODES]).toEqual(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'])
  })

  it('takes the CA from --ca, else PGSSLROOTCERT ("system": the system store), and refuses a non-PEM file', () => {
    expect(resolveTarget({ ca }, { PGSSLROOTCERT: '/nope' }, 'x')).toMatchObject({
      caSource: `--ca ${ca}`,
      caPem: PEM,
    })
    expect(resolveTarget({}, { PGSSLROOTCERT: ca }, 'x')).toMatchObject({ caPem: PEM })
    expect(resolveTarget({}, { PGSSLROOTCERT: 'system' }, 'x')).toMatchObject({ caPem: undefined })
    const bad = path.join(dir, 'bad.crt')
    fs.writeFileSync(bad, 'not a certificate')
    expect(() => resolveTarget({ ca: bad }, {}, 'x')).toThrow('is not a PEM certificate')
    expect(() => resolveTarget({ ca: path.join(dir, 'missing') }, {}, 'x')).toThrow('cannot read the CA')
  })
})

describe('scramVerifier', () => {
  it('is PostgreSQL’s SCRAM-SHA-256 format with a fresh salt, never the password', () => {
    const a = scramVerifier('correct horse battery')
    const b = scramVerifier('correct horse battery')
    expect(a).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain('horse')
  })
})
