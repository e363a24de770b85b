/**
 * A fast yes/no check derived from a zod schema, for validating 100k records: zod stays the schema of record
 * (its issues are the ones reported, and it decides every record this check does not accept), but a record that
 * passes here is one zod would accept, at a tenth of the cost (zod builds a copy of every object it checks).
 *
 * Sound by construction: the schema is read from zod's own definition, and only the constructs whose rules are
 * plain and that the record kinds' schemas use (object strict/loose/strip, string with a minimum length, safe
 * integer, enum, nullable, optional, array, record of string keys, unknown) are compiled, and only when their
 * definitions hold nothing else; a schema with anything else (refinements, string formats, unions, transforms,
 * coercion, other checks…) gets no fast check at all, and every value goes through zod (a test holds both kinds'
 * schemas compiled). Where in doubt the check says no: zod then decides.
 */
import type { z } from 'zod'

export type FastCheck = (value: unknown) => boolean

interface Def {
  type: string
  checks?: Array<{ _zod: { def: Record<string, unknown> } }>
  coerce?: boolean
  shape?: Record<string, Schema>
  catchall?: Schema
  innerType?: Schema
  element?: Schema
  keyType?: Schema
  valueType?: Schema
  entries?: Record<string, unknown>
}
interface Schema {
  _zod: { def: Def }
}

class Unsupported extends Error {}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype

/** The checks of `def`, each one of `allowed`, else unsupported. */
function checksOf(def: Def, allowed: readonly string[]): Array<Record<string, unknown>> {
  if (def.coerce === true) throw new Unsupported('coerce')
  const checks = (def.checks ?? []).map((c) => c._zod.def)
  for (const c of checks) if (!allowed.includes(String(c.check))) throw new Unsupported(String(c.check))
  return checks
}

/**
 * The members a definition of each type may have here. Anything else (a string `format` such as z.iso.datetime
 * or z.email, a record `mode`…) means rules this compiler does not know: unsupported.
 */
const DEF_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  unknown: [],
  string: ['checks', 'coerce'],
  number: ['checks', 'coerce'],
  enum: ['entries'],
  nullable: ['innerType'],
  optional: ['innerType'],
  array: ['element', 'checks'],
  record: ['keyType', 'valueType', 'checks'],
  object: ['shape', 'catchall', 'checks'],
}

function compile(schema: Schema): FastCheck {
  const def = schema._zod.def
  const members = DEF_MEMBERS[def.type]
  if (!members) throw new Unsupported(def.type)
  for (const k of Object.keys(def))
    if (k !== 'type' && !members.includes(k)) throw new Unsupported(`${def.type}.${k}`)
  switch (def.type) {
    case 'unknown':
      return () => true
    case 'string': {
      let min = 0
      for (const c of checksOf(def, ['min_length'])) min = Math.max(min, Number(c.minimum))
      return (v) => typeof v === 'string' && v.length >= min
    }
    case 'number': {
      const checks = checksOf(def, ['number_format'])
      if (checks.length === 0 || checks.some((c) => c.format !== 'safeint')) throw new Unsupported('number')
      return (v) => Number.isSafeInteger(v)
    }
    case 'enum': {
      checksOf(def, [])
      const values = new Set(Object.values(def.entries ?? {}).filter((x) => typeof x === 'string'))
      return (v) => typeof v === 'string' && values.has(v)
    }
    case 'nullable': {
      const inner = compile(def.innerType as Schema)
      return (v) => v === null || inner(v)
    }
    case 'array': {
      checksOf(def, [])
      const element = compile(def.element as Schema)
      return (v) => {
        if (!Array.isArray(v)) return false
        for (const x of v) if (!element(x)) return false
        return true
      }
    }
    case 'record': {
      checksOf(def, [])
      const key = (def.keyType as Schema)._zod.def
      if (key.type !== 'string' || (key.checks ?? []).length > 0 || key.coerce === true)
        throw new Unsupported('record key')
      const value = compile(def.valueType as Schema)
      return (v) => {
        if (!isPlainObject(v)) return false
        for (const k of Object.keys(v)) if (!value(v[k])) return false
        return true
      }
    }
    case 'object':
      return compileObject(def)
    default:
      throw new Unsupported(def.type)
  }
}

function compileObject(def: Def): FastCheck {
  checksOf(def, [])
  const catchall = def.catchall?._zod.def.type
  // undefined: zod's default (unknown members stripped); 'never': strict; 'unknown': loose.
  if (catchall !== undefined && catchall !== 'never' && catchall !== 'unknown')
    throw new Unsupported(`catchall ${catchall}`)
  const members = Object.entries(def.shape ?? {}).map(([name, s]) => {
    // zod reads members as `input[name]`: an inherited one (toString…) would be seen; not worth supporting.
    if (name in Object.prototype) throw new Unsupported(`member ${name}`)
    const d = s._zod.def
    const optional = d.type === 'optional'
    return { name, optional, check: compile(optional ? (d.innerType as Schema) : s) }
  })
  const known = new Set(members.map((m) => m.name))
  const strict = catchall === 'never'
  return (v) => {
    if (!isPlainObject(v)) return false
    for (const m of members) {
      if (Object.hasOwn(v, m.name)) {
        if (!m.check(v[m.name])) return false
      } else if (!m.optional) return false
    }
    if (strict) for (const k of Object.keys(v)) if (!known.has(k)) return false
    return true
  }
}

/** The fast check of `schema`, or null when it uses anything not listed in the header (zod then does all). */
export function compileSchemaPrecheck(schema: z.ZodType): FastCheck | null {
  try {
    return compile(schema as unknown as Schema)
  } catch (e) {
    if (e instanceof Unsupported) return null
    throw e
  }
}
