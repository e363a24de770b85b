/**
 * redact.ts: the check every record goes through before it leaves the app. Names are found by a walk of the
 * members (not a pattern over the text), so these hold the walk to what the text pattern found: any depth, inside
 * arrays, any case and separator, and nothing for the record's own top-level fields.
 */
import { describe, expect, it } from 'vitest'
import { makeRedactor, REDACTED } from '../../../src/main/records/redact'

const record = (extra: Record<string, unknown>): Record<string, unknown> => ({
  localId: 'a',
  remoteCheckedAt: null,
  lastRemote: { status: 'sent', receiverName: 'Ana' },
  ...extra,
})

describe('makeRedactor', () => {
  it('a clean record comes back as itself, with its serialised text', () => {
    const redact = makeRedactor(['cs_live_7f3a9b2c1d'])
    const r = record({})
    const out = redact(r)
    expect(out.record).toBe(r)
    expect(out.json).toBe(JSON.stringify(r))
    expect(redact.count).toBe(0)
  })

  it('a member named like a credential is redacted at any depth, inside arrays, in any case', () => {
    const redact = makeRedactor()
    const r = record({
      lastRemote: {
        status: 'sent',
        events: [{ kind: 'auth', 'Refresh-Token': 'r1' }, { nested: [{ API_KEY: 'k1', note: 'ok' }] }],
        headers: { Authorization: 'Basic abc', accept: 'json' },
      },
    })
    const out = redact(r)
    expect(out.record).not.toBe(r)
    expect(out.record.lastRemote).toEqual({
      status: 'sent',
      events: [{ kind: 'auth', 'Refresh-Token': REDACTED }, { nested: [{ API_KEY: REDACTED, note: 'ok' }] }],
      headers: { Authorization: REDACTED, accept: 'json' },
    })
    expect(out.json).toBe(JSON.stringify(out.record))
    expect(redact.count).toBe(3)
    // Found when it is the only one: inside an array, deep down.
    const deep = record({ lastRemote: { events: [{ kind: 'auth' }, { data: [{ access_token: 'zzz' }] }] } })
    expect(JSON.stringify(redact(deep).record)).toContain(`"access_token":"${REDACTED}"`)
    expect(redact.count).toBe(4)
    // The input is left as it was.
    expect((r.lastRemote as { headers: { Authorization: string } }).headers.Authorization).toBe('Basic abc')
  })

  it("the record's own top-level fields are never taken for credentials; names that only contain one are not", () => {
    const redact = makeRedactor()
    const r = record({ token: 'not-a-credential', lastRemote: { tokenType: 'x', my_password_hint: 'y' } })
    expect(redact(r).record).toBe(r)
    expect(redact.count).toBe(0)
  })

  it('values: a JWT, a PEM private key or a known secret anywhere', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJlLXZhbHVl'
    const redact = makeRedactor(['cs_live_7f3a9b2c1d', 'short'])
    const r = record({
      receiverName: `Bearer ${jwt}`,
      lastRemote: {
        note: '-----BEGIN EC PRIVATE KEY-----\nabc',
        memo: 'secret is cs_live_7f3a9b2c1d',
        x: 'short',
      },
    })
    const out = redact(r)
    expect(out.record.receiverName).toBe(REDACTED)
    expect(out.record.lastRemote).toEqual({ note: REDACTED, memo: REDACTED, x: 'short' })
    expect(redact.count).toBe(3)
  })
})
