/**
 * The team profile's TLS modes against a real server with a real certificate chain (a throwaway CA made with
 * openssl): verify-full accepts the right CA and host name and refuses another CA or another name; verify-ca
 * checks the chain only.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamConnection } from '../../../../src/main/ledger/engines'
import type { TeamLedgerSettings } from '../../../../src/shared/team-ledger'
import {
  ADMIN_USER,
  announceSkip,
  PG_SKIP_REASON,
  startCluster,
  type PgCluster,
} from '../../../support/postgres'
import { makeCerts, OPENSSL_MISSING } from '../../../support/tls-certs'

announceSkip('team ledger TLS (postgres)')
if (OPENSSL_MISSING) console.warn(`[team ledger TLS] skipped: ${OPENSSL_MISSING}`)

describe.skipIf(PG_SKIP_REASON !== null || OPENSSL_MISSING !== null)('team ledger TLS', () => {
  let cluster: PgCluster
  let certs: ReturnType<typeof makeCerts>
  let dir: string
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-tls-'))
    certs = makeCerts(dir)
    cluster = await startCluster({ tls: { certPem: certs.cert, keyPem: certs.key } })
  }, 120_000)
  afterAll(() => {
    cluster?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const settings = (o: Partial<TeamLedgerSettings>): TeamLedgerSettings => ({
    host: 'localhost',
    port: cluster.port,
    database: 'postgres',
    role: ADMIN_USER,
    tls: 'verify-full',
    caPem: certs.ca,
    ...o,
  })
  const password = (): string => String(cluster.config().password)

  async function connect(s: TeamLedgerSettings): Promise<boolean> {
    const c = new pg.Client({ ...teamConnection(s, password()), connectionTimeoutMillis: 5000 })
    c.on('error', () => undefined)
    await c.connect()
    try {
      const r = await c.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')
      return r.rows[0]?.ssl === true
    } finally {
      await c.end()
    }
  }

  it('verify-full connects over TLS with the team CA and the certificate’s host name', async () => {
    expect(await connect(settings({}))).toBe(true)
  })

  it('verify-full refuses a server signed by another CA', async () => {
    await expect(connect(settings({ caPem: certs.otherCa }))).rejects.toThrow(
      /self.signed|unable to verify|certificate/i,
    )
  })

  it('verify-full refuses a host name the certificate does not name; verify-ca accepts it', async () => {
    await expect(connect(settings({ host: '127.0.0.1' }))).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    })
    expect(await connect(settings({ host: '127.0.0.1', tls: 'verify-ca' }))).toBe(true)
  })

  it('disable on loopback really is a plain connection', async () => {
    expect(await connect(settings({ host: '127.0.0.1', tls: 'disable', caPem: null }))).toBe(false)
  })
})
