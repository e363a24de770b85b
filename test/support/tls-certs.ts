/**
 * A throwaway certificate chain for TLS tests, made with openssl: a CA, a server certificate for DNS:localhost
 * signed by it, and an unrelated CA.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** Why certificates cannot be made here; null when they can. */
export const OPENSSL_MISSING = spawnSync('openssl', ['version']).status === 0 ? null : 'openssl not found'

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`)
}

/** A CA and a server certificate for DNS:localhost signed by it; and an unrelated CA. */
export function makeCerts(dir: string): { ca: string; otherCa: string; cert: string; key: string } {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=Team CA',
  ])
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'other.key',
    '-out',
    'other.crt',
    '-days',
    '2',
    '-subj',
    '/CN=Other CA',
  ])
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  ])
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName = DNS:localhost\n')
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ])
  const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8')
  return { ca: read('ca.crt'), otherCa: read('other.crt'), cert: read('server.crt'), key: read('server.key') }
}
