/**
 * "Testar conexão" against a team server that speaks TLS with a throwaway CA: certificate and host name failures
 * are told apart from a wrong password or an unreachable server by the TLS error code, and the right CA passes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeTeamLedger } from '../../../src/main/profiles/team-probe'
import type { TeamLedgerSettings } from '../../../src/shared/team-ledger'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { makeCerts, OPENSSL_MISSING } from '../../support/tls-certs'
import { DATABASE, startTeam, type Team } from '../ledger/team'

announceSkip('team connection TLS (postgres)')
if (OPENSSL_MISSING) console.warn(`[team connection TLS] skipped: ${OPENSSL_MISSING}`)

describe.skipIf(PG_SKIP_REASON !== null || OPENSSL_MISSING !== null)('team:test over TLS', () => {
  let team: Team
  let certs: ReturnType<typeof makeCerts>
  let dir: string
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-conn-tls-'))
    certs = makeCerts(dir)
    team = await startTeam({ tls: { certPem: certs.cert, keyPem: certs.key } })
    await team.addAnalyst('ana')
  }, 120_000)
  afterAll(async () => {
    await team?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const settings = (o: Partial<TeamLedgerSettings>): TeamLedgerSettings => ({
    host: 'localhost',
    port: team.cluster.port,
    database: DATABASE,
    role: 'ana',
    tls: 'verify-full',
    caPem: certs.ca,
    ...o,
  })

  it('verify-full with the team CA and the certificate’s name → ok', async () => {
    expect(await probeTeamLedger(settings({}), 'ana-pw')).toMatchObject({ verdict: 'ok', identity: 'ana' })
  })

  it('another CA, no CA, or another host name → tls_failed with the TLS code as detail', async () => {
    for (const s of [settings({ caPem: certs.otherCa }), settings({ caPem: null })]) {
      const r = await probeTeamLedger(s, 'ana-pw')
      expect(r.verdict).toBe('tls_failed')
      expect(r.detail).toMatch(/^[A-Z_]+$/)
    }
    expect(await probeTeamLedger(settings({ host: '127.0.0.1' }), 'ana-pw')).toMatchObject({
      verdict: 'tls_failed',
      detail: 'ERR_TLS_CERT_ALTNAME_INVALID',
    })
  })

  it('the TLS checks come before the password: a wrong password over good TLS is auth_failed', async () => {
    expect(await probeTeamLedger(settings({}), 'wrong')).toMatchObject({ verdict: 'auth_failed' })
    expect(await probeTeamLedger(settings({ tls: 'require', caPem: null }), 'ana-pw')).toMatchObject({
      verdict: 'ok',
    })
  })
})
