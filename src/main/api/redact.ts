/**
 * Keeps secrets out of anything the client hands back. The service's free text is quoted in errors, and a
 * service (or a proxy in front of it) could echo what it received; so every string we keep from a response
 * goes through here first.
 */

const JWT_LIKE = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g
const BEARER = /\bBearer\s+[\w.~+/=-]+/gi
const MAX_TEXT = 500

export class Redactor {
  readonly #pinned = new Set<string>()
  /** Rotated tokens stay registered for a while: an old token in a late echo is still a secret. */
  readonly #recent: string[] = []

  /** Secrets shorter than 8 characters would turn ordinary words into "[redacted]"; none of ours are that short. */
  pin(secret: string | null | undefined): void {
    if (secret && secret.length >= 8) this.#pinned.add(secret)
  }

  add(secret: string | null | undefined): void {
    if (!secret || secret.length < 8 || this.#recent.includes(secret)) return
    this.#recent.push(secret)
    if (this.#recent.length > 32) this.#recent.shift()
  }

  text(value: string): string {
    let out = value
    for (const secret of [...this.#pinned, ...this.#recent]) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]')
    }
    out = out.replace(JWT_LIKE, '[redacted]').replace(BEARER, 'Bearer [redacted]')
    out = out.replace(/\s+/g, ' ').trim()
    return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}…` : out
  }

  optional(value: string | undefined): string | undefined {
    if (value === undefined) return undefined
    const out = this.text(value)
    return out === '' ? undefined : out
  }
}
