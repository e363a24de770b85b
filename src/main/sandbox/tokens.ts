/**
 * RS256 access tokens (docs/API-CONTRACT.md#s5-7) and legacy tokens (§5.8). Signing uses node:crypto directly so that minting
 * is synchronous (the control surface hands out legacy tokens without a promise); verification goes through
 * jose. A verified token string is cached with its claims until its `exp`, so a hot polling loop costs one
 * map lookup per request instead of an RSA verification.
 */
import { createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto'
import { jwtVerify, exportJWK, type JWK } from 'jose'
import type { SandboxClock } from './clock'

export interface TokenClaims {
  jti: string
  sub: string
  exp: number
  iat: number
  scope: string[]
  typ: 'JWT'
  alg: 'RS256'
  env: string
}

const CACHE_MAX = 50_000
/** Legacy tokens lived at most 365 days after issue (docs/API-CONTRACT.md#s5-8). */
export const LEGACY_MAX_SECONDS = 365 * 86_400

function b64url(s: string | Buffer): string {
  return Buffer.from(s).toString('base64url')
}

export class TokenService {
  private readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  readonly kid = randomUUID()
  private readonly cache = new Map<string, { claims: TokenClaims; expMs: number }>()
  private readonly revokedJtis = new Set<string>()
  private readonly header: string

  constructor(
    private readonly clock: SandboxClock,
    readonly env: string,
    readonly sub: string,
  ) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 })
    this.privateKey = pair.privateKey
    this.publicKey = createPublicKey(pair.privateKey)
    this.header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: this.kid }))
  }

  /** Signs a token for this partner; `ttlSeconds` from the sandbox clock. */
  mint(scope: string[], ttlSeconds: number): { token: string; claims: TokenClaims } {
    const iat = Math.floor(this.clock.now() / 1000)
    const claims: TokenClaims = {
      jti: randomUUID(),
      sub: this.sub,
      exp: iat + ttlSeconds,
      iat,
      scope: [...scope],
      typ: 'JWT',
      alg: 'RS256',
      env: this.env,
    }
    const input = `${this.header}.${b64url(JSON.stringify(claims))}`
    const signature = sign('sha256', Buffer.from(input), this.privateKey).toString('base64url')
    return { token: `${input}.${signature}`, claims }
  }

  /** Access tokens of a replayed session stop working at once (the credential itself stays usable). */
  revoke(jtis: Iterable<string>): void {
    for (const jti of jtis) this.revokedJtis.add(jti)
  }

  /** The claims of a live token, or null when missing, malformed, badly signed, expired or revoked. */
  async verify(token: string): Promise<TokenClaims | null> {
    const now = this.clock.now()
    const hit = this.cache.get(token)
    if (hit !== undefined) {
      if (now >= hit.expMs) {
        this.cache.delete(token)
        return null
      }
      return this.revokedJtis.size > 0 && this.revokedJtis.has(hit.claims.jti) ? null : hit.claims
    }
    let claims: TokenClaims
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: ['RS256'],
        currentDate: new Date(now),
        clockTolerance: 0,
      })
      const c = payload as Partial<TokenClaims>
      if (
        typeof c.jti !== 'string' ||
        typeof c.sub !== 'string' ||
        typeof c.exp !== 'number' ||
        typeof c.iat !== 'number' ||
        !Array.isArray(c.scope) ||
        !c.scope.every((s) => typeof s === 'string') ||
        c.env !== this.env
      ) {
        return null
      }
      claims = c as TokenClaims
    } catch {
      return null
    }
    if (this.revokedJtis.has(claims.jti)) return null
    if (this.cache.size >= CACHE_MAX) this.cache.clear()
    this.cache.set(token, { claims, expMs: claims.exp * 1000 })
    return claims
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const jwk = await exportJWK(this.publicKey)
    return { keys: [{ ...jwk, kid: this.kid, alg: 'RS256', use: 'sig' }] }
  }
}
