/**
 * Reading a Pix "copia e cola" payload (BR Code: EMV® QRCPS merchant-presented mode, TLV fields and a CRC16/CCITT
 * trailer) before the app shows it as a picture: the CRC must hold (a damaged payload is refused by every bank app,
 * so the operator is told, not shown a QR that fails), and the amount it carries (field 54, when present) is
 * compared with the amount of the deposit. Nothing here trusts the text: it is the service's, unchecked.
 */

export interface BrCodeFacts {
  /** The CRC trailer matches the payload. */
  crcValid: boolean
  /** Field 54 in cents, when present and a plain decimal amount. */
  amountCents: number | null
  /** Field 59, the receiving name, as written. */
  merchantName: string | null
  /** Field 26 (Pix merchant account), sub-field 01: the receiving Pix key of a static QR. */
  receiverKey: string | null
}

function crc16(payload: string): string {
  let crc = 0xffff
  for (let i = 0; i < payload.length; i++) {
    crc ^= (payload.charCodeAt(i) & 0xff) << 8
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

/** Top-level TLV fields, or null when the text is not a TLV sequence. */
function fields(payload: string): Map<string, string> | null {
  const out = new Map<string, string>()
  let i = 0
  while (i < payload.length) {
    const id = payload.slice(i, i + 2)
    const len = Number(payload.slice(i + 2, i + 4))
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(payload.slice(i + 2, i + 4))) return null
    const value = payload.slice(i + 4, i + 4 + len)
    if (value.length !== len) return null
    out.set(id, value)
    i += 4 + len
  }
  return out
}

/** "500.00" → 50000; anything but digits with at most two decimals → null. */
function amountToCents(s: string): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(s)
  if (!m) return null
  const cents = Number(`${m[1]}${(m[2] ?? '').padEnd(2, '0')}`)
  return Number.isSafeInteger(cents) ? cents : null
}

export function readBrCode(payload: string): BrCodeFacts | null {
  if (typeof payload !== 'string' || !payload.startsWith('000201') || payload.length < 12) return null
  if (!/^[\x20-\x7e]+$/.test(payload)) return null
  const f = fields(payload)
  if (f === null || !f.has('63')) return null
  const body = payload.slice(0, -4)
  const amount = f.get('54')
  const pixAccount = f.get('26')
  return {
    crcValid: payload.endsWith(`6304${f.get('63') ?? ''}`) && crc16(body) === f.get('63'),
    amountCents: amount === undefined ? null : amountToCents(amount),
    merchantName: f.get('59') ?? null,
    receiverKey: pixAccount === undefined ? null : (fields(pixAccount)?.get('01') ?? null),
  }
}
