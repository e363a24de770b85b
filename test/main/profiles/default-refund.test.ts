/**
 * The profile's default refund address as the profile service keeps it (issue #14): on a live profile's stored
 * record and, for the built-in Sandbox profile (which has no stored record), under its own store key; both
 * survive a restart; the previous value is returned for the audit entry. The Liquid check is main's handler's
 * (test/main/app/payees-ipc.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createJsonFileStore, createProfileService, ProfileError } from '../../../src/main/profiles'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'

const ADDRESS =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'default-refund-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const vault = createMemoryVault()
function open() {
  return createProfileService({
    store: createJsonFileStore(join(dir, 'settings.json')),
    vault,
    sandbox: () => ({ baseUrl: 'http://127.0.0.1:4010/', clientId: 'sandbox-client' }),
  })
}

describe('default refund address', () => {
  it('is kept for the Sandbox profile and a live one, across a restart, and can be removed', () => {
    const svc = open()
    const live = svc.addLive({
      name: 'Conta',
      baseUrl: 'https://depix.example',
      network: 'liquid',
      auth: { kind: 'client_credentials', clientId: 'c', clientSecret: 'cs_live_0123456789abcdef' },
    })
    expect(svc.setDefaultRefundAddress(SANDBOX_PROFILE_ID, ADDRESS)).toMatchObject({
      profile: { id: SANDBOX_PROFILE_ID, defaultRefundAddress: ADDRESS },
      previous: null,
    })
    expect(svc.setDefaultRefundAddress(live.id, ADDRESS).previous).toBeNull()
    const again = open()
    expect(again.get(SANDBOX_PROFILE_ID)?.defaultRefundAddress).toBe(ADDRESS)
    expect(again.get(live.id)?.defaultRefundAddress).toBe(ADDRESS)
    expect(again.list().every((p) => p.defaultRefundAddress === ADDRESS)).toBe(true)
    expect(again.setDefaultRefundAddress(live.id, null).previous).toBe(ADDRESS)
    expect(again.get(live.id)).not.toHaveProperty('defaultRefundAddress')
    expect(again.setDefaultRefundAddress(SANDBOX_PROFILE_ID, null).previous).toBe(ADDRESS)
    expect(open().get(SANDBOX_PROFILE_ID)).not.toHaveProperty('defaultRefundAddress')
  })

  it('refuses an empty or oversized value and an unknown profile; a hand-edited store value is ignored', () => {
    const svc = open()
    expect(() => svc.setDefaultRefundAddress(SANDBOX_PROFILE_ID, '')).toThrow(ProfileError)
    expect(() => svc.setDefaultRefundAddress(SANDBOX_PROFILE_ID, 'x'.repeat(201))).toThrow(ProfileError)
    expect(() => svc.setDefaultRefundAddress('nope', ADDRESS)).toThrow(ProfileError)
    svc.setDefaultRefundAddress(SANDBOX_PROFILE_ID, ADDRESS)
    const file = join(dir, 'settings.json')
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    writeFileSync(file, JSON.stringify({ ...stored, sandboxProfile: { defaultRefundAddress: 42 } }))
    expect(open().get(SANDBOX_PROFILE_ID)).not.toHaveProperty('defaultRefundAddress')
  })
})
