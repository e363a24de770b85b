/**
 * A Pix "copia e cola" payload (BR Code, EMV® QRCPS merchant-presented mode, dynamic), so that what the app
 * shows and renders as a QR looks and checks like the real thing: TLV fields and a CRC16/CCITT-FALSE trailer.
 */

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`
}

export function crc16(payload: string): string {
  let crc = 0xffff
  for (let i = 0; i < payload.length; i++) {
    crc ^= payload.charCodeAt(i) << 8
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

export function brCode(qrId: string, amountInCents: number): string {
  const amount = `${Math.floor(amountInCents / 100)}.${String(amountInCents % 100).padStart(2, '0')}`
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', `pix.sandbox.depix.invalid/qr/v2/${qrId}`)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', amount) +
    tlv('58', 'BR') +
    tlv('59', 'DEPIX SANDBOX') +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', '***')) +
    '6304'
  return body + crc16(body)
}
