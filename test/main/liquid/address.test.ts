import { ECDH } from 'node:crypto'
import fc from 'fast-check'
import * as liquid from 'liquidjs-lib'
import { describe, expect, it } from 'vitest'
import {
  checkLiquidAddress,
  DEPIX_ASSET_ID,
  formatLiquidMessage,
  liquidMessages,
  LIQUID_NETWORKS,
  type LiquidNetwork,
} from '../../../src/main/liquid'

// Valid addresses from liquid-vectors.json (rust-elements test_fixed_addresses / test_actuals).
const LQ =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'
const LQ_SPK = '0014f22d924b8b7ec66c464fb4bebf0f789b2177a175'
const EX = 'ex1q7gkeyjut0mrxc3j0kjlt7rmcnvsh0gt45d3fud'
const TEX = 'tex1qew0l0emv7449u7hqgc8utzdzryhse79yh5jp9a'
const Q_P2PKH = 'QFq3vvrr6Ub2KAyb3LdoCxEQvKukB6nN9i'
const V_CONF_P2PKH = 'VTptY6cqJbusNpL5xvo8VL38nLX9PGDjfYQfqhu9EaA7FtuidkWyQzMHY9jzZrpBcCXT437vM6V4N8kh'
const REASONS = ['empty', 'wrong_network', 'malformed', 'bad_checksum', 'unsupported']
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

const check = (input: unknown, network: unknown = 'liquid') =>
  checkLiquidAddress(input as string, network as LiquidNetwork)

describe('normalisation', () => {
  it('strips a liquidnetwork: / liquidtestnet: scheme, in any case', () => {
    expect(check(`liquidnetwork:${LQ}`)).toMatchObject({ ok: true, address: LQ, scriptPubKey: LQ_SPK })
    expect(check(`LiquidNetwork:${EX}`)).toMatchObject({ ok: true, address: EX })
    expect(check(`liquidtestnet:${TEX}`, 'testnet')).toMatchObject({ ok: true, address: TEX })
  })

  it('strips a ?query, with or without a scheme', () => {
    const uri = `liquidnetwork:${LQ}?amount=12.34&assetid=${DEPIX_ASSET_ID}`
    expect(check(uri)).toMatchObject({ ok: true, address: LQ })
    expect(check(`${EX}?amount=1`)).toMatchObject({ ok: true, address: EX })
  })

  it('trims surrounding whitespace but refuses whitespace inside', () => {
    expect(check(`\t\n ${EX} \r\n`)).toMatchObject({ ok: true, address: EX })
    expect(check(`\u00a0${LQ}\u00a0`)).toMatchObject({ ok: true, address: LQ })
    expect(check(`${EX.slice(0, 12)} ${EX.slice(12)}`)).toMatchObject({ ok: false, reason: 'malformed' })
  })

  it('accepts all-uppercase bech32/blech32 and returns it lowercased', () => {
    expect(check(LQ.toUpperCase())).toMatchObject({ ok: true, address: LQ, confidential: true })
    expect(check(`LIQUIDNETWORK:${EX.toUpperCase()}?AMOUNT=1`)).toMatchObject({ ok: true, address: EX })
  })

  it('refuses mixed case bech32/blech32 as malformed', () => {
    const mixed = `${EX.slice(0, 10)}${EX.charAt(10).toUpperCase()}${EX.slice(11)}`
    expect(check(mixed)).toMatchObject({ ok: false, reason: 'malformed' })
    expect(check(`Lq${LQ.slice(2)}`)).toMatchObject({ ok: false, reason: 'malformed' })
  })

  it('never changes the case of base58 (it is case-sensitive)', () => {
    expect(check(Q_P2PKH)).toMatchObject({ ok: true, kind: 'p2pkh', confidential: false })
    expect(check(Q_P2PKH.toLowerCase()).ok).toBe(false)
    expect(check(Q_P2PKH.toUpperCase()).ok).toBe(false)
    expect(check(V_CONF_P2PKH)).toMatchObject({ ok: true, kind: 'p2pkh', confidential: true })
  })

  it('reports empty input as empty', () => {
    for (const input of ['', '   ', '\n', 'liquidnetwork:', 'liquidnetwork:?amount=1', null, undefined]) {
      expect(check(input)).toMatchObject({ ok: false, reason: 'empty' })
    }
  })

  it('is idempotent: a normalised address checks to the same result', () => {
    for (const input of [LQ.toUpperCase(), ` liquidnetwork:${EX}?x=1`, Q_P2PKH, V_CONF_P2PKH]) {
      const first = check(input)
      if (!first.ok) throw new Error(`expected ${input} to be valid`)
      expect(check(first.address)).toEqual(first)
    }
  })
})

describe('refusals', () => {
  it('calls Bitcoin, Arkade and Spark addresses unsupported', () => {
    for (const address of [
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      'ark1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
      'spark1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
    ]) {
      expect(check(address)).toMatchObject({ ok: false, reason: 'unsupported' })
    }
  })

  it('refuses a well-formed future witness version (v2) or a non-taproot v1 as unsupported', () => {
    const v2 = liquid.address.toBech32(Buffer.alloc(32, 7), 2, 'ex')
    expect(check(v2)).toMatchObject({ ok: false, reason: 'unsupported' })
    expect(check(v2, 'testnet')).toMatchObject({
      ok: false,
      reason: 'wrong_network',
      actualNetwork: 'liquid',
    })
    const v1Short = liquid.address.toBech32(Buffer.alloc(20, 7), 1, 'ex')
    expect(check(v1Short)).toMatchObject({ ok: false, reason: 'unsupported' })
    const pubkey = Buffer.from(LQ_SPK.slice(4), 'hex')
    const script = Buffer.concat([Buffer.from([0x51, 20]), pubkey])
    const confidentialV1Short = liquid.address.toBlech32(script, validPoint(), 'lq', 1)
    expect(check(confidentialV1Short)).toMatchObject({ ok: false, reason: 'unsupported' })
  })

  it('refuses a confidential address whose blinding key is not a curve point', () => {
    const badKey = notAPoint()
    const blech = liquid.address.toBlech32(Buffer.from(LQ_SPK, 'hex'), badKey, 'lq', 0)
    expect(check(blech)).toMatchObject({ ok: false, reason: 'malformed' })
    const legacy = liquid.address.toConfidential(Q_P2PKH, badKey)
    expect(check(legacy)).toMatchObject({ ok: false, reason: 'malformed' })
    // Control: the same constructions with a real key are accepted.
    expect(check(liquid.address.toBlech32(Buffer.from(LQ_SPK, 'hex'), validPoint(), 'lq', 0)).ok).toBe(true)
    expect(check(liquid.address.toConfidential(Q_P2PKH, validPoint())).ok).toBe(true)
  })

  it('gives wrong_network a message naming both networks, in both languages', () => {
    const r = check(TEX, 'liquid')
    expect(r).toMatchObject({ ok: false, reason: 'wrong_network' })
    if (r.ok) return
    expect(r.message).toBe(
      formatLiquidMessage('wrong_network', 'en', { expected: 'liquid', actual: 'testnet' }),
    )
    expect(r.message).toMatch(/Liquid Testnet.*Liquid\b/)
    const pt = formatLiquidMessage('wrong_network', 'pt-BR', { expected: 'liquid', actual: 'testnet' })
    expect(pt).toContain('Liquid Testnet')
    expect(pt).not.toContain('{')
  })

  it('has a pt-BR and an en message for every reason', () => {
    expect(Object.keys(liquidMessages).sort()).toEqual([...REASONS].sort())
    for (const m of Object.values(liquidMessages)) {
      expect(m['pt-BR'].length).toBeGreaterThan(10)
      expect(m.en.length).toBeGreaterThan(10)
    }
  })

  it('refuses absurdly long input quickly', () => {
    const started = performance.now()
    expect(check(`lq1${'q'.repeat(1_000_000)}`)).toMatchObject({ ok: false, reason: 'malformed' })
    expect(check('1'.repeat(1_000_000))).toMatchObject({ ok: false, reason: 'malformed' })
    expect(performance.now() - started).toBeLessThan(500)
  })

  it('never throws on non-string input or an unknown network', () => {
    for (const input of [42, {}, [], Symbol('x'), () => EX]) {
      expect(check(input)).toMatchObject({ ok: false, reason: 'malformed' })
    }
    expect(check(EX, 'bitcoin')).toMatchObject({ ok: false, reason: 'unsupported' })
  })
})

describe('properties', () => {
  const valid = [LQ, EX, TEX, Q_P2PKH, V_CONF_P2PKH]
  const networkOf = (a: string): LiquidNetwork => (a === TEX ? 'testnet' : 'liquid')

  it('never throws and always returns a well-formed result (fuzz)', () => {
    const prefix = fc.constantFrom(
      '',
      'lq1',
      'ex1',
      'tlq1',
      'tex1',
      'el1',
      'ert1',
      'liquidnetwork:',
      'V',
      'Q',
      'LQ1',
    )
    const body = fc.oneof(
      // Any code point, lone surrogates included. (fc's built-in 'binary' unit costs a second to set up.)
      fc.string({
        unit: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
        maxLength: 150,
      }),
      fc.string({ unit: fc.constantFrom(...BECH32_CHARSET, '1', 'Q', ' ', '?'), maxLength: 130 }),
      fc.string({ unit: fc.constantFrom(...BASE58_ALPHABET), maxLength: 90 }),
    )
    fc.assert(
      fc.property(prefix, body, fc.constantFrom(...LIQUID_NETWORKS), (p, b, network) => {
        // Plain booleans, not expect(): this runs thousands of times and must stay cheap.
        const r = checkLiquidAddress(p + b, network)
        if (!r.ok) return REASONS.includes(r.reason) && r.message.length > 0
        const again = checkLiquidAddress(r.address, network)
        return again.ok && again.address === r.address && again.scriptPubKey === r.scriptPubKey
      }),
      { numRuns: 3000 },
    )
  })

  it('never accepts a valid address with one character substituted (a typo)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...valid), fc.nat(), fc.nat(), (address, at, pick) => {
        const alphabet = /^[a-z]/.test(address) ? BECH32_CHARSET : BASE58_ALPHABET
        const start = /^[a-z]/.test(address) ? address.indexOf('1') + 1 : 0
        const i = start + (at % (address.length - start))
        const replacement = alphabet.charAt(pick % alphabet.length)
        fc.pre(replacement !== address.charAt(i))
        const typo = address.slice(0, i) + replacement + address.slice(i + 1)
        return LIQUID_NETWORKS.every((network) => !checkLiquidAddress(typo, network).ok)
      }),
      { numRuns: 2000 },
    )
  })

  it('never accepts a valid address with two neighbouring characters swapped', () => {
    fc.assert(
      fc.property(fc.constantFrom(...valid), fc.nat(), (address, at) => {
        const i = at % (address.length - 1)
        fc.pre(address.charAt(i) !== address.charAt(i + 1))
        const swapped = address.slice(0, i) + address.charAt(i + 1) + address.charAt(i) + address.slice(i + 2)
        return !checkLiquidAddress(swapped, networkOf(address)).ok
      }),
      { numRuns: 1000 },
    )
  })
})

// The secp256k1 generator G, compressed.
function validPoint(): Buffer {
  return Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex')
}

// x = 5 has no y on secp256k1 (5^3 + 7 = 132 is not a square mod p): a well-formatted key that is no point.
function notAPoint(): Buffer {
  const key = Buffer.alloc(33)
  key[0] = 0x02
  key[32] = 5
  expect(() => ECDH.convertKey(key, 'secp256k1', undefined, undefined, 'compressed')).toThrow()
  return key
}
