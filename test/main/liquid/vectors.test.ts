import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as liquid from 'liquidjs-lib'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  checkLiquidAddress,
  LIQUID_NETWORK_LABEL,
  LIQUID_NETWORKS,
  type LiquidAddressFailure,
  type LiquidNetwork,
} from '../../../src/main/liquid'
import { decodeFor } from '../../../src/main/liquid/address'

const fixturePath = fileURLToPath(new URL('../../fixtures/liquid-vectors.json', import.meta.url))

const Vector = z.object({
  address: z.string(),
  network: z.enum(['liquid', 'testnet', 'regtest']),
  valid: z.boolean(),
  confidential: z.boolean(),
  kind: z.string(),
  source: z.string(),
  scriptPubKey: z.string().optional(),
  note: z.string().optional(),
  liquidjsLibAcceptsWrongly: z.boolean().optional(),
  liquidjsLibRejectsWrongly: z.boolean().optional(),
})
type Vector = z.infer<typeof Vector>
const vectors = z
  .object({ vectors: z.array(Vector) })
  .parse(JSON.parse(readFileSync(fixturePath, 'utf8'))).vectors

// The address alone cannot tell a wrapped or script-tree output from a plain one, so we report the outer type.
const KIND_BY_VECTOR_KIND: Record<string, string> = {
  p2pkh: 'p2pkh',
  p2sh: 'p2sh',
  'p2sh-p2wpkh': 'p2sh',
  p2wpkh: 'p2wpkh',
  'p2wpkh-uppercase': 'p2wpkh',
  p2wsh: 'p2wsh',
  p2tr: 'p2tr',
  'p2tr-scripttree': 'p2tr',
}

// Invalid vectors from Elements' rpc_invalid_address_message.py, keyed by the test constant named in `source`.
const REASON_BY_ELEMENTS_CASE: Record<string, LiquidAddressFailure> = {
  BECH32_INVALID_BECH32: 'bad_checksum', // v1 with a bech32 (not bech32m) checksum
  BECH32_INVALID_BECH32M: 'bad_checksum', // v0 with a bech32m checksum
  BECH32_INVALID_VERSION: 'malformed', // witness v17
  BECH32_INVALID_SIZE: 'malformed',
  BECH32_INVALID_V0_SIZE: 'malformed',
  BASE58_INVALID_PREFIX: 'unsupported', // a Bitcoin address
  BASE58_INVALID_CHECKSUM: 'bad_checksum',
  BASE58_INVALID_LENGTH: 'malformed',
  INVALID_ADDRESS: 'malformed',
  BECH32_INVALID_PREFIX: 'unsupported', // a Bitcoin bc1 address
  BLECH32_INVALID_BLECH32: 'bad_checksum', // liquidjsLibAcceptsWrongly
  BLECH32_INVALID_BLECH32M: 'bad_checksum', // liquidjsLibAcceptsWrongly
  BLECH32_INVALID_SIZE: 'malformed',
  // lq1 on regtest: not valid on mainnet either (wrong checksum variant), so not "wrong network".
  BLECH32_INVALID_PREFIX: 'bad_checksum',
}

const REASON_BY_VECTOR_KIND: Record<string, LiquidAddressFailure> = {
  'bitcoin-address': 'unsupported',
  'mixed-case': 'malformed',
  'bad-checksum': 'bad_checksum',
}

function expectedReason(v: Vector): LiquidAddressFailure {
  if (v.kind.startsWith('wrong-network:')) return 'wrong_network'
  if (v.liquidjsLibAcceptsWrongly) return 'bad_checksum'
  const byKind = REASON_BY_VECTOR_KIND[v.kind]
  if (byKind) return byKind
  const elementsCase = /rpc_invalid_address_message\.py (\w+)/.exec(v.source)?.[1]
  const byCase = elementsCase ? REASON_BY_ELEMENTS_CASE[elementsCase] : undefined
  if (byCase) return byCase
  // vulpemventures/blech32 "invalid CT address": far too short to hold a blinding key and a program.
  if (v.source.includes('invalid CT address')) return 'malformed'
  throw new Error(`no expected reason for vector ${v.address} (${v.source}): decide one`)
}

const label = (v: Vector): string => `${v.network} ${v.kind} ${v.address.trim().slice(0, 28)}…`

describe('liquid-vectors.json', () => {
  it('holds the 177 vectors, byte for byte as copied from the reference fixtures (SHA-256 pinned)', () => {
    expect(vectors).toHaveLength(177)
    const sha256 = createHash('sha256').update(readFileSync(fixturePath)).digest('hex')
    expect(sha256).toBe('2d42ba09f084f68dadc0d52b00b1c3418feda0c9693b0b24a1e41fdbe67668c8')
  })
})

describe('checkLiquidAddress against the valid vectors', () => {
  it.each(vectors.filter((v) => v.valid).map((v) => [label(v), v] as const))('accepts %s', (_, v) => {
    const r = checkLiquidAddress(v.address, v.network)
    expect(r).toMatchObject({ ok: true, network: v.network, confidential: v.confidential })
    if (!r.ok) return
    expect(r.kind).toBe(KIND_BY_VECTOR_KIND[v.kind])
    if (v.scriptPubKey) expect(r.scriptPubKey).toBe(v.scriptPubKey)
    // bech32/blech32 are case-insensitive; we hand back the canonical lowercase form.
    expect(r.address).toBe(/^(EX|TEX|ERT|LQ|TLQ|EL)1/.test(v.address) ? v.address.toLowerCase() : v.address)
  })
})

describe('checkLiquidAddress against the invalid vectors', () => {
  const invalid = vectors.filter((v) => !v.valid && v.kind !== 'whitespace')

  it.each(invalid.map((v) => [label(v), v] as const))('refuses %s', (_, v) => {
    const r = checkLiquidAddress(v.address, v.network)
    expect(r).toMatchObject({ ok: false, reason: expectedReason(v) })
  })

  const crossNetwork = invalid.filter((v) => v.kind.startsWith('wrong-network:'))
  it.each(crossNetwork.map((v) => [label(v), v] as const))(
    'wrong network %s: the message names both networks, and the address is valid on exactly one other',
    (_, v) => {
      const r = checkLiquidAddress(v.address, v.network)
      const elsewhere = LIQUID_NETWORKS.filter((n) => n !== v.network)
        .map((n) => checkLiquidAddress(v.address, n))
        .filter((x) => x.ok)
      expect(elsewhere).toHaveLength(1)
      const home = elsewhere[0]
      if (r.ok || !home?.ok) throw new Error('unreachable')
      expect(home.confidential).toBe(v.confidential)
      expect(home.kind).toBe(KIND_BY_VECTOR_KIND[v.kind.slice('wrong-network:'.length)])
      expect(r.message).toContain(LIQUID_NETWORK_LABEL[v.network])
      expect(r.message).toContain(LIQUID_NETWORK_LABEL[home.network])
    },
  )

  const wronglyAccepted = vectors.filter((v) => v.liquidjsLibAcceptsWrongly)
  it('flags exactly the three addresses liquidjs-lib alone accepts', () => {
    expect(wronglyAccepted).toHaveLength(3)
  })
  it.each(wronglyAccepted.map((v) => [label(v), v] as const))(
    'liquidjs-lib alone accepts %s, which is why we re-encode',
    (_, v) => {
      expect(() => liquid.address.toOutputScript(v.address, liquid.networks[v.network])).not.toThrow()
      // The checksum precheck refuses it first; the re-encode layer must refuse it on its own too.
      expect(decodeFor(v.address, v.network)).toBe('mismatch')
      expect(checkLiquidAddress(v.address, v.network)).toMatchObject({ ok: false, reason: 'bad_checksum' })
    },
  )
})

describe('the whitespace vector (invalid as given; our documented policy trims)', () => {
  const spaced = vectors.filter((v) => v.kind === 'whitespace')
  it.each(spaced.map((v) => [label(v), v] as const))('%s is accepted once trimmed', (_, v) => {
    expect(v.address).not.toBe(v.address.trim())
    const r = checkLiquidAddress(v.address, v.network)
    expect(r).toMatchObject({ ok: true, address: v.address.trim(), confidential: v.confidential })
  })
})

describe('every vector is asserted', () => {
  it('has an expectation for each invalid vector', () => {
    const networks: LiquidNetwork[] = [...LIQUID_NETWORKS]
    for (const v of vectors) {
      expect(networks).toContain(v.network)
      if (!v.valid && v.kind !== 'whitespace') expect(() => expectedReason(v)).not.toThrow()
      if (v.valid) expect(KIND_BY_VECTOR_KIND[v.kind]).toBeDefined()
    }
  })
})
