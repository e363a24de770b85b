/**
 * Unlocking a Jade (issue #28, "Jade over USB"): a Jade is unlocked by a PIN-server handshake the host relays — the
 * Jade hands out an HTTPS request (URL and an opaque JSON body, end-to-end encrypted between the Jade and the
 * server), the host posts it and hands the answer back. LWK does the Jade side in the renderer; the renderer may
 * fetch nothing (`connect-src 'none'`), so its LWK's HTTP goes through `walletPay:jadePinServer` to this relay,
 * which posts only to Blockstream's PIN servers as Jade firmware names them. The PIN never leaves the Jade.
 */
export const JADE_PIN_SERVER_ORIGINS = ['https://j8d.io', 'https://jadepin.blockstream.com'] as const

/** A handshake message is a few hundred bytes of JSON; anything near this is not one. */
export const PIN_SERVER_BODY_MAX = 64 * 1024
const TIMEOUT_MS = 20_000

export type PinServerPost = (url: string, body: string) => Promise<{ status: number; body: string }>

/** The URL to post to when it is one of the PIN servers' (https, no credentials, query or fragment); else null. */
export function pinServerUrl(raw: string): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (!(JADE_PIN_SERVER_ORIGINS as readonly string[]).includes(url.origin)) return null
  if (url.username || url.password || url.search || url.hash) return null
  if (!/^\/[A-Za-z0-9_/-]{1,100}$/.test(url.pathname)) return null
  return url.href
}

/** A JSON object, as every handshake message is. */
export function isJsonObject(body: string): boolean {
  try {
    const v: unknown = JSON.parse(body)
    return typeof v === 'object' && v !== null && !Array.isArray(v)
  } catch {
    return false
  }
}

/** Main's own POST (Node's fetch): JSON in, at most PIN_SERVER_BODY_MAX of text back, no redirects, 20 s. */
export const postToPinServer: PinServerPost = async (url, body) => {
  const r = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  })
  const text = await r.text()
  if (text.length > PIN_SERVER_BODY_MAX) throw new Error('pin server answer too large')
  return { status: r.status, body: text }
}
