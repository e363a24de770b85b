import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, canonicalJsonWithout } from '../../../../src/main/ledger/model/canonical-json'

/** The definition canonicalJson always had, member by member: the fast path must write exactly this. */
function reference(v: unknown): string | undefined {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return JSON.stringify(v)
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('non-finite')
      return JSON.stringify(v)
    case 'bigint':
      throw new TypeError('bigint')
    case 'object': {
      const withJson = v as { toJSON?: () => unknown }
      if (typeof withJson.toJSON === 'function') return reference(withJson.toJSON())
      if (Array.isArray(v)) return `[${v.map((x) => reference(x) ?? 'null').join(',')}]`
      const parts: string[] = []
      for (const key of Object.keys(v).sort()) {
        const item = reference((v as Record<string, unknown>)[key])
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`)
      }
      return `{${parts.join(',')}}`
    }
    default:
      return undefined
  }
}

describe('canonicalJson', () => {
  it('property: the same text as the member-by-member definition, for any JSON value, sorted or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalJson(v)).toBe(reference(v))
        // A value parsed back from its canonical text takes the fast path (already in order): same text.
        expect(canonicalJson(JSON.parse(canonicalJson(v)))).toBe(reference(v))
      }),
      { numRuns: 500 },
    )
  })
  it('property: the same text for nested objects with array-index, "__proto__" and odd keys', () => {
    const key = fc.oneof(
      fc.constantFrom(
        '0',
        '1',
        '9',
        '10',
        '01',
        '-1',
        '4294967294',
        '4294967295',
        '__proto__',
        'toJSON',
        'a',
        'é',
        'Z',
      ),
      fc.string(),
    )
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.array(fc.tuple(key, tie('node')), { maxLength: 6 }).map((pairs) => {
          const o: Record<string, unknown> = {}
          for (const [k, x] of pairs) {
            Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true })
          }
          return o
        }),
      ),
    })).node
    fc.assert(
      fc.property(tree, (v) => {
        expect(canonicalJson(v)).toBe(reference(v))
      }),
      { numRuns: 1000 },
    )
  })
  it('a value that is not plain JSON is written as the definition says (toJSON, boxed values, undefined, functions)', () => {
    const v = {
      d: new Date(0),
      s: Object('ab') as object,
      n: [undefined, () => 1, Symbol('x')],
      u: undefined,
      f: () => 1,
      j: { toJSON: () => ({ b: 1, a: 2 }) },
      c: new (class {
        y = 1
        x = 2
      })(),
      nul: Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
    }
    expect(canonicalJson(v)).toBe(reference(v))
    expect(canonicalJson(v)).toBe(
      '{"c":{"x":2,"y":1},"d":"1970-01-01T00:00:00.000Z","j":{"a":2,"b":1},"n":[null,null,null],"nul":{"a":2,"b":1},"s":{"0":"a","1":"b"}}',
    )
  })
  it('an object already in order is written from itself; out of order from a copy; the input is never changed', () => {
    const inner = { b: [3, { y: 1, x: 2 }], a: 1 }
    const before = JSON.stringify(inner)
    expect(canonicalJson(inner)).toBe('{"a":1,"b":[3,{"x":2,"y":1}]}')
    expect(JSON.stringify(inner)).toBe(before)
  })
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

describe('canonicalJsonWithout', () => {
  it('property: canonicalJson of the object without that member, the object untouched', () => {
    const key = fc.constantFrom('remoteCheckedAt', 'a', '10', '9', '__proto__', 'z')
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), key, (d, omit) => {
        const before = JSON.stringify(d)
        const { [omit]: _left, ...rest } = d
        expect(canonicalJsonWithout(d, omit)).toBe(reference(rest))
        expect(JSON.stringify(d)).toBe(before)
      }),
      { numRuns: 500 },
    )
  })
  it('records of one shape in a row (the cached member order) and then another shape', () => {
    const a = { b: 1, a: { d: 1, c: 2 }, remoteCheckedAt: 'x' }
    const b = { b: 2, a: { d: 3, c: 4 }, remoteCheckedAt: null }
    const c = { c: 1, b: 2, a: 3 }
    expect(canonicalJsonWithout(a, 'remoteCheckedAt')).toBe('{"a":{"c":2,"d":1},"b":1}')
    expect(canonicalJsonWithout(b, 'remoteCheckedAt')).toBe('{"a":{"c":4,"d":3},"b":2}')
    expect(canonicalJson(c)).toBe('{"a":3,"b":2,"c":1}')
    expect(canonicalJson(a)).toBe('{"a":{"c":2,"d":1},"b":1,"remoteCheckedAt":"x"}')
  })
})
