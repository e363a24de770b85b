import QRCode from 'qrcode'

/** The funding URI as an SVG QR code. Level M survives a smudged screen or print while staying scannable. */
export async function fundingQrSvg(uri: string): Promise<string> {
  if (typeof uri !== 'string' || uri === '') throw new TypeError('uri must be a non-empty string')
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M' })
}
