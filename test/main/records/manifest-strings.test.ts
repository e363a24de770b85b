/**
 * Issue #12: the manifest schema refuses control, DEL and bidirectional characters in every string it holds —
 * including the status totals (a status the service made up), the public key (only the PEM's own line breaks)
 * and the signature — while an honest export of such a status still verifies.
 */
import { describe, expect, it } from 'vitest'
import { verifyExport } from '../../../src/main/records/verify'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, readManifest, resign, SIGNER, writeManifest } from './helpers'

const HOSTILE = 'pago\u001b[2K\u202eok'

function hostileLedger() {
  const recs = [...makeRecords(4, { seed: 12 })].map((r, i) => ({
    ...r,
    localState: 'created' as const,
    remoteId: `remote-status-${i}`,
    // Two raw statuses that escape alike: one is the control character, the other its escaped spelling.
    remoteStatus: i === 0 ? HOSTILE : i === 1 ? 'pago\\u001b[2K\\u202eok' : 'sent',
  }))
  return seededLedger(recs).ledger
}

const schemaProblems = (v: Awaited<ReturnType<typeof verifyExport>>): string[] =>
  v.problems.filter((p) => p.check === 'schema').map((p) => p.detail)

describe('manifest strings (issue #12)', () => {
  it('writes a made-up status escaped in the totals, and the export verifies intact from every format', async () => {
    const res = await exportTo(hostileLedger())
    const m = readManifest(res) as unknown as { totals: Array<{ status: string; count: number }> }
    const statuses = m.totals.map((t) => t.status)
    // eslint-disable-next-line no-control-regex
    expect(statuses.some((s) => /[\u0000-\u001f\u202e]/.test(s))).toBe(false)
    // The two raw spellings are one group in the manifest, as the verifier groups them too.
    const escaped = m.totals.find(
      (t) => t.status === 'pago\\u001b[2k\\u202eok' || t.status.startsWith('pago\\u001b'),
    )
    expect(escaped?.count).toBe(2)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
  })

  it('refuses a manifest whose status totals carry a raw control character, even when re-signed', async () => {
    const res = await exportTo(hostileLedger())
    const m = readManifest(res) as unknown as Record<string, unknown> & { totals: Array<{ status: string }> }
    const t = m.totals.find((x) => x.status.startsWith('pago'))
    if (!t) throw new Error('no hostile total')
    t.status = t.status.replace('\\u001b', '\u001b')
    resign(m, SIGNER)
    writeManifest(res, m)
    const v = await verifyExport(res.manifestPath)
    expect(v.ok).toBe(false)
    expect(schemaProblems(v).join('\n')).toMatch(
      /totals\.\d+\.status: contains the control character U\+001B/,
    )
  })

  it('refuses a public key with anything but a PEM block, and a signature that is not base64', async () => {
    const res = await exportTo(hostileLedger())
    const m = readManifest(res)
    // Still a key Node would parse (PEM parsers skip junk around the block), but not a PEM block alone.
    m.publicKey = `\u001b[1A\u001b[2KRESULT: INTACT\n${String(m.publicKey)}`
    writeManifest(res, m)
    let v = await verifyExport(res.manifestPath)
    expect(v.ok).toBe(false)
    expect(schemaProblems(v).join('\n')).toMatch(/publicKey: must be one PEM "PUBLIC KEY" block/)

    const res2 = await exportTo(hostileLedger())
    const m2 = readManifest(res2)
    m2.signature = `${String(m2.signature)}\u001b[8m`
    writeManifest(res2, m2)
    v = await verifyExport(res2.manifestPath)
    expect(v.ok).toBe(false)
    expect(schemaProblems(v).join('\n')).toMatch(/signature: must be base64/)
  })
})
