/**
 * Looks inside an XLSX (a zip) before any library inflates it: the central directory's entry count, each entry's
 * declared sizes and compression ratio, encryption, and the size of the parts a spreadsheet of at most 1,000
 * payments can need. A zip bomb or a giant shared-strings part is refused here from a few KiB of reading. A file
 * that lies about its sizes is still bounded by the worker's memory and time limits (xlsx.ts).
 */
import type { RunMessageCode } from '../../../shared/run'

export const ZIP_MAX_ENTRIES = 200
/** Sum of declared uncompressed sizes. 1,000 rows × 12 columns of XML is far below this. */
export const ZIP_MAX_TOTAL_BYTES = 40 * 1024 * 1024
/** Any one part (a worksheet, sharedStrings.xml, styles.xml). */
export const ZIP_MAX_ENTRY_BYTES = 16 * 1024 * 1024
/** Spreadsheet XML compresses well, but not 200:1 unless it is a bomb. */
export const ZIP_MAX_RATIO = 200

const EOCD = 0x06054b50
const CDH = 0x02014b50

export type ZipVerdict = { ok: true; entries: string[] } | { ok: false; code: RunMessageCode }

export function inspectZip(buf: Uint8Array): ZipVerdict {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
  // The end record sits in the last 22 bytes plus a comment of at most 65,535 bytes.
  let eocd = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i
      break
    }
  }
  if (eocd < 0) return { ok: false, code: 'xlsx_unreadable' }
  const count = view.getUint16(eocd + 10, true)
  const cdSize = view.getUint32(eocd + 12, true)
  const cdOffset = view.getUint32(eocd + 16, true)
  // 0xFFFF / 0xFFFFFFFF mean zip64: no spreadsheet this small needs it.
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    return { ok: false, code: 'xlsx_too_big' }
  }
  if (count > ZIP_MAX_ENTRIES) return { ok: false, code: 'xlsx_too_big' }
  if (cdOffset + cdSize > eocd) return { ok: false, code: 'xlsx_unreadable' }
  const entries: string[] = []
  let total = 0
  let p = cdOffset
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || view.getUint32(p, true) !== CDH) return { ok: false, code: 'xlsx_unreadable' }
    const flags = view.getUint16(p + 8, true)
    const compressed = view.getUint32(p + 20, true)
    const size = view.getUint32(p + 24, true)
    const nameLen = view.getUint16(p + 28, true)
    const extraLen = view.getUint16(p + 30, true)
    const commentLen = view.getUint16(p + 32, true)
    if (p + 46 + nameLen > eocd) return { ok: false, code: 'xlsx_unreadable' }
    const name = new TextDecoder().decode(buf.subarray(p + 46, p + 46 + nameLen))
    if ((flags & 1) !== 0) return { ok: false, code: 'xlsx_encrypted' }
    if (size === 0xffffffff || compressed === 0xffffffff) return { ok: false, code: 'xlsx_too_big' }
    if (size > ZIP_MAX_ENTRY_BYTES) return { ok: false, code: 'xlsx_too_big' }
    if (size > 1024 * 1024 && size / Math.max(1, compressed) > ZIP_MAX_RATIO) {
      return { ok: false, code: 'xlsx_too_big' }
    }
    total += size
    if (total > ZIP_MAX_TOTAL_BYTES) return { ok: false, code: 'xlsx_too_big' }
    entries.push(name)
    p += 46 + nameLen + extraLen + commentLen
  }
  // An encrypted Office file is an OLE container, not a zip; a zip without a workbook is not a spreadsheet.
  if (!entries.includes('xl/workbook.xml')) return { ok: false, code: 'xlsx_unreadable' }
  return { ok: true, entries }
}
