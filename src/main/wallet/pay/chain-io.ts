/**
 * The two Esplora calls paying needs, outside LWK: broadcast a finalized transaction (`POST /tx`) and ask whether a
 * transaction is known (`GET /tx/:txid/status`). Timed out, host-pinned by construction (the profile's URL), and
 * answered as codes: a refusal's text is kept for "Detalhes técnicos", never parsed.
 */
export type BroadcastResult =
  | { readonly kind: 'accepted'; readonly txid: string }
  | { readonly kind: 'refused'; readonly status: number; readonly text: string }
  | { readonly kind: 'unreachable' }

export type TxPresence = 'confirmed' | 'mempool' | 'absent' | 'unknown'

const TIMEOUT_MS = 15_000

export async function broadcastTx(esploraUrl: string, hex: string): Promise<BroadcastResult> {
  let res: Response
  try {
    res = await fetch(`${esploraUrl.replace(/\/+$/, '')}/tx`, {
      method: 'POST',
      body: hex,
      headers: { 'Content-Type': 'text/plain' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    return { kind: 'unreachable' }
  }
  const text = (await res.text().catch(() => '')).slice(0, 500)
  if (res.ok && /^[0-9a-f]{64}$/.test(text.trim())) return { kind: 'accepted', txid: text.trim() }
  return { kind: 'refused', status: res.status, text }
}

export async function txPresence(esploraUrl: string, txid: string): Promise<TxPresence> {
  let res: Response
  try {
    res = await fetch(`${esploraUrl.replace(/\/+$/, '')}/tx/${txid}/status`, {
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    return 'unknown'
  }
  if (res.status === 404) return 'absent'
  if (!res.ok) return 'unknown'
  const body: unknown = await res.json().catch(() => null)
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof (body as { confirmed?: unknown }).confirmed !== 'boolean'
  )
    return 'unknown'
  return (body as { confirmed: boolean }).confirmed ? 'confirmed' : 'mempool'
}
