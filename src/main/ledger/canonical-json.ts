/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, `undefined` members dropped (as
 * JSON.stringify does). The audit hash is computed over this form, so a row's hash does not depend on how a
 * caller happened to order keys, and a verifier in another language can reproduce it.
 */
export function canonicalJson(value: unknown): string {
  const out = write(value)
  if (out === undefined) throw new TypeError('canonicalJson: value is not serialisable')
  return out
}

function write(v: unknown): string | undefined {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return JSON.stringify(v)
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number')
      return JSON.stringify(v)
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    case 'bigint':
      throw new TypeError('canonicalJson: bigint is not JSON')
    case 'object': {
      const withJson = v as { toJSON?: () => unknown }
      if (typeof withJson.toJSON === 'function') return write(withJson.toJSON())
      if (Array.isArray(v)) return `[${v.map((x) => write(x) ?? 'null').join(',')}]`
      const parts: string[] = []
      for (const key of Object.keys(v).sort()) {
        const item = write((v as Record<string, unknown>)[key])
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`)
      }
      return `{${parts.join(',')}}`
    }
  }
}
