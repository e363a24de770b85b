import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../../src/main/ledger/canonical-json'

describe('canonicalJson', () => {
  it('sorts keys by code unit, drops undefined members, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [1, undefined, 'x'], c: undefined, é: true, Z: null })).toBe(
      '{"Z":null,"a":[1,null,"x"],"b":1,"é":true}',
    )
  })
  it('array-index-like keys keep code-unit order ("10" before "9"), unlike a JavaScript object', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: { 2: 1, 1: 2 } })).toBe('{"10":"b","9":"a","x":{"1":2,"2":1}}')
  })
  it('a "__proto__" member from parsed JSON is kept as a member', () => {
    const v = JSON.parse('{"z":1,"__proto__":{"evil":true},"a":2}') as unknown
    expect(canonicalJson(v)).toBe('{"__proto__":{"evil":true},"a":2,"z":1}')
  })
  it('refuses non-finite numbers, bigint and undefined at the top', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError)
    expect(() => canonicalJson([Infinity])).toThrow(TypeError)
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError)
    expect(() => canonicalJson(undefined)).toThrow(TypeError)
  })
  it('property: key order of the input does not matter', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (d) => {
        const reversed = Object.fromEntries(Object.entries(d).reverse())
        expect(canonicalJson(reversed)).toBe(canonicalJson(d))
      }),
    )
  })
})
