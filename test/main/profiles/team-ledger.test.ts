/**
 * The team ledger connection stored per profile (issue #16): settings in the real JSON settings file, the
 * password in a real file vault; what is read back is validated; a stored password is reused only for the server
 * it was typed for.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createJsonFileStore,
  createProfileService,
  ProfileError,
  TEAM_LEDGERS_KEY,
  TeamSettingsRefusal,
  type ProfileService,
} from '../../../src/main/profiles'
import { openFileVault, teamLedgerSecretKey, type Vault } from '../../../src/main/secrets/vault'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import { teamLedgerPasswordKey, type TeamLedgerSettings } from '../../../src/shared/team-ledger'
import { fakeCrypto } from '../secrets/fake-crypto'

const PASSWORD = 'ana-Senha-forte-0123456789'
const settings: TeamLedgerSettings = {
  host: 'db.equipe.example',
  port: 5432,
  database: 'depix_team',
  role: 'ana_souza',
  tls: 'verify-full',
  caPem: null,
}

let dir: string
let storeFile: string
let vaultFile: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'team-profiles-'))
  storeFile = join(dir, 'settings.json')
  vaultFile = join(dir, 'secrets.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const crypto = fakeCrypto()
function open(): { svc: ProfileService; vault: Vault } {
  const vault = openFileVault({ file: vaultFile, crypto })
  const svc = createProfileService({
    store: createJsonFileStore(storeFile),
    vault,
    sandbox: () => ({ baseUrl: 'http://127.0.0.1:4010/' }),
  })
  return { svc, vault }
}

function addLive(svc: ProfileService, name = 'Conta Principal'): string {
  return svc.addLive({
    name,
    baseUrl: 'https://depix.example',
    network: 'liquid',
    auth: { kind: 'client_credentials', clientId: 'acme', clientSecret: 'cs_live_secret_0123456789' },
  }).id
}

function refusal(fn: () => unknown): Record<string, string> {
  try {
    fn()
  } catch (e) {
    if (e instanceof TeamSettingsRefusal) return e.fields
    throw e
  }
  throw new Error('expected a TeamSettingsRefusal')
}

describe('team ledger settings of a profile', () => {
  it('round-trips through the settings file and the vault, and survives a restart', () => {
    const { svc } = open()
    const id = addLive(svc)
    expect(svc.teamLedger(id)).toEqual({ settings: null, hasPassword: false })
    expect(svc.teamLedgerConnection(id)).toBeNull()
    expect(svc.saveTeamLedger(id, settings, PASSWORD)).toEqual({ settings, hasPassword: true })

    const file = readFileSync(storeFile, 'utf8')
    expect(file).not.toContain(PASSWORD)
    expect(JSON.parse(file)[TEAM_LEDGERS_KEY]).toEqual({ [id]: settings })

    const again = open()
    expect(again.svc.teamLedger(id)).toEqual({ settings, hasPassword: true })
    expect(again.svc.teamLedgerConnection(id)).toEqual({ settings, password: PASSWORD })
    expect(again.vault.get(teamLedgerSecretKey(id))).toBe(PASSWORD)
    expect(teamLedgerSecretKey(id)).toBe(teamLedgerPasswordKey(id))
    // Another profile has nothing.
    expect(again.svc.teamLedgerConnection(SANDBOX_PROFILE_ID)).toBeNull()
  })

  it('keeps the stored password for the same server, and asks again for another server, role or TLS', () => {
    const { svc } = open()
    const id = addLive(svc)
    expect(refusal(() => svc.saveTeamLedger(id, settings))).toEqual({ password: 'password_required' })
    expect(refusal(() => svc.saveTeamLedger(id, settings, ''))).toEqual({ password: 'password_required' })
    expect(refusal(() => svc.saveTeamLedger(id, settings, 'x'.repeat(1025)))).toEqual({
      password: 'password_too_long',
    })
    svc.saveTeamLedger(id, settings, PASSWORD)
    // Another database on the same server, same role and TLS: the password stays.
    expect(svc.saveTeamLedger(id, { ...settings, database: 'depix_other' })).toMatchObject({
      hasPassword: true,
    })
    expect(svc.teamLedgerConnection(id)?.password).toBe(PASSWORD)
    for (const change of [
      { host: 'evil.example' },
      { port: 6543 },
      { role: 'bruno' },
      { tls: 'require' as const },
      { caPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----' },
    ]) {
      expect(refusal(() => svc.saveTeamLedger(id, { ...settings, ...change }))).toEqual({
        password: 'password_required',
      })
      expect(svc.teamLedgerPassword(id, { ...settings, ...change })).toBeNull()
    }
    // Nothing changed by the refusals.
    expect(svc.teamLedgerConnection(id)).toEqual({
      settings: { ...settings, database: 'depix_other' },
      password: PASSWORD,
    })
    expect(svc.teamLedgerPassword(id, { ...settings, host: 'DB.EQUIPE.EXAMPLE' })).toBe(PASSWORD)
    expect(svc.teamLedgerPassword(id, { ...settings, host: 'evil.example' }, 'typed')).toBe('typed')
  })

  it('refuses invalid settings with the codes the form shows, storing nothing', () => {
    const { svc, vault } = open()
    const id = addLive(svc)
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ ...settings, host: 'postgres://db.example' }, { host: 'host_invalid' }],
      [{ ...settings, port: 0 }, { port: 'port_invalid' }],
      [{ ...settings, port: 5432.5 }, { port: 'port_invalid' }],
      [{ ...settings, database: 'Depix Team' }, { database: 'database_invalid' }],
      [{ ...settings, role: "ana'; DROP ROLE x; --" }, { role: 'role_invalid' }],
      [{ ...settings, tls: 'disable' }, { tls: 'tls_required' }],
      [{ ...settings, caPem: 'not a certificate' }, { caPem: 'ca_invalid' }],
      [{ ...settings, extra: 1 }, { '(input)': 'invalid_value' }],
      [{ ...settings, tls: 'prefer' }, { tls: 'invalid_value' }],
      ['db.example:5432', { '(input)': 'invalid_value' }],
    ]
    for (const [input, fields] of cases) {
      expect(refusal(() => svc.saveTeamLedger(id, input, PASSWORD))).toEqual(fields)
    }
    expect(svc.teamLedger(id)).toEqual({ settings: null, hasPassword: false })
    // disable is fine for this computer.
    expect(
      svc.saveTeamLedger(id, { ...settings, host: '127.0.0.1', tls: 'disable' }, PASSWORD).settings?.tls,
    ).toBe('disable')
    svc.forgetTeamLedger(id)
    expect(vault.get(teamLedgerSecretKey(id))).toBeNull()
    expect(JSON.parse(readFileSync(storeFile, 'utf8'))[TEAM_LEDGERS_KEY]).toEqual({})
  })

  it('reports and ignores a corrupt entry, keeps it in the file, and never crashes', () => {
    const { svc } = open()
    const id = addLive(svc)
    const other = addLive(svc, 'Outra Conta')
    svc.saveTeamLedger(id, settings, PASSWORD)
    svc.saveTeamLedger(other, settings, PASSWORD)
    const data = JSON.parse(readFileSync(storeFile, 'utf8'))
    const hostile = { ...settings, host: 'x.example; rm -rf /', port: '5432' }
    data[TEAM_LEDGERS_KEY][id] = hostile
    writeFileSync(storeFile, JSON.stringify(data))

    const again = open()
    expect(again.svc.warnings()).toContainEqual({
      code: 'team_ledger_dropped',
      id,
      fields: { host: 'host_invalid', port: 'port_invalid' },
    })
    expect(JSON.stringify(again.svc.warnings())).not.toContain('rm -rf')
    expect(again.svc.teamLedger(id)).toEqual({ settings: null, hasPassword: true })
    expect(again.svc.teamLedgerConnection(id)).toBeNull()
    // The damaged entry is no reason to hand the stored password to whatever settings come next.
    expect(again.svc.teamLedgerPassword(id, settings)).toBeNull()
    expect(again.svc.teamLedgerConnection(other)).toEqual({ settings, password: PASSWORD })
    // Saving the other profile keeps the damaged entry for a repair by hand.
    again.svc.saveTeamLedger(other, { ...settings, database: 'outra' })
    expect(JSON.parse(readFileSync(storeFile, 'utf8'))[TEAM_LEDGERS_KEY][id]).toEqual(hostile)
    // Saving this profile anew replaces it.
    again.svc.saveTeamLedger(id, settings, 'new-password')
    expect(open().svc.teamLedgerConnection(id)).toEqual({ settings, password: 'new-password' })
  })

  it('reports a team ledger map that is not an object', () => {
    writeFileSync(storeFile, JSON.stringify({ [TEAM_LEDGERS_KEY]: ['host'] }))
    const { svc } = open()
    expect(svc.warnings()).toContainEqual({ code: 'team_ledgers_not_an_object' })
    expect(svc.teamLedger(SANDBOX_PROFILE_ID)).toEqual({ settings: null, hasPassword: false })
  })

  it('deleting a profile deletes its team settings and password; a new profile of that id starts clean', () => {
    const { svc, vault } = open()
    const id = addLive(svc)
    svc.saveTeamLedger(id, settings, PASSWORD)
    svc.remove(id)
    expect(vault.get(teamLedgerSecretKey(id))).toBeNull()
    expect(readFileSync(vaultFile, 'utf8')).not.toContain(PASSWORD)
    expect(JSON.parse(readFileSync(storeFile, 'utf8'))[TEAM_LEDGERS_KEY]).toEqual({})
    expect(svc.teamLedgerConnection(id)).toBeNull()
    // A password left behind by hand must not connect a new profile that reuses the id.
    vault.set(teamLedgerSecretKey(id), 'leftover')
    const reused = addLive(svc)
    expect(reused).toBe(id)
    expect(svc.teamLedger(reused)).toEqual({ settings: null, hasPassword: false })
  })

  it('refuses an unknown profile and works on the built-in Sandbox profile', () => {
    const { svc } = open()
    expect(() => svc.saveTeamLedger('nao-existe', settings, PASSWORD)).toThrow(ProfileError)
    expect(() => svc.teamLedger('nao-existe')).toThrow(ProfileError)
    expect(svc.teamLedgerConnection('nao-existe')).toBeNull()
    svc.saveTeamLedger(SANDBOX_PROFILE_ID, settings, PASSWORD)
    expect(svc.teamLedgerConnection(SANDBOX_PROFILE_ID)).toEqual({ settings, password: PASSWORD })
    expect(svc.forgetTeamLedger(SANDBOX_PROFILE_ID)).toEqual({ settings: null, hasPassword: false })
  })
})
