import { describe, expect, it } from 'vitest'
import { teamConnection } from '../../../../src/main/ledger/engines'
import { teamLedgerSettingsSchema, teamLedgerMessages } from '../../../../src/shared/team-ledger'

const base = {
  host: 'db.tesouraria.example',
  port: 5432,
  database: 'depix_team',
  role: 'ana_souza',
  tls: 'verify-full' as const,
}

describe('team ledger settings', () => {
  it('accepts a verify-full profile and maps it to a checked TLS connection', () => {
    const s = teamLedgerSettingsSchema.parse(base)
    expect(s.caPem).toBeNull()
    const c = teamConnection(s, 'secret')
    expect(c).toMatchObject({
      host: base.host,
      port: 5432,
      database: 'depix_team',
      user: 'ana_souza',
      password: 'secret',
    })
    expect(c.ssl).toMatchObject({ rejectUnauthorized: true, servername: base.host })
  })

  it('checks only the chain for verify-ca and nothing for require', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    const vca = teamConnection(teamLedgerSettingsSchema.parse({ ...base, tls: 'verify-ca', caPem: ca }), 'x')
    expect(vca.ssl).toMatchObject({ rejectUnauthorized: true, ca })
    const ssl = vca.ssl as { checkServerIdentity?: () => unknown }
    expect(ssl.checkServerIdentity?.()).toBeUndefined()
    expect(teamConnection(teamLedgerSettingsSchema.parse({ ...base, tls: 'require' }), 'x').ssl).toEqual({
      rejectUnauthorized: false,
    })
  })

  it('refuses TLS off for anything but this computer, with a translatable code', () => {
    const r = teamLedgerSettingsSchema.safeParse({ ...base, tls: 'disable' })
    expect(r.success).toBe(false)
    const code = r.error?.issues[0]?.message as keyof typeof teamLedgerMessages
    expect(code).toBe('tls_required')
    expect(teamLedgerMessages[code]['pt-BR']).toContain('verify-full')
    expect(
      teamConnection(teamLedgerSettingsSchema.parse({ ...base, host: '127.0.0.1', tls: 'disable' }), 'x').ssl,
    ).toBe(false)
  })

  it('refuses hostile or malformed fields', () => {
    const bad = [
      { host: 'postgres://db' },
      { host: 'db\nexample' },
      { port: 0 },
      { port: 70000 },
      { port: 5432.5 },
      { database: 'Depix; DROP' },
      { role: 'ana"; --' },
      { caPem: 'not a certificate' },
      { password: 'never here' },
    ]
    for (const b of bad)
      expect(teamLedgerSettingsSchema.safeParse({ ...base, ...b }).success, JSON.stringify(b)).toBe(false)
    expect(() => teamConnection({ ...base, role: 'x y' } as never, 'p')).toThrow(/team ledger settings/)
  })
})
