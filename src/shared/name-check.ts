/**
 * The name check: does the Pix go to the payee the analyst chose? When the payout is made the service reports
 * the key owner's `receiverName` and a masked `receiverTaxNumber` (docs/API-CONTRACT.md#s2-3); we compare them with the payee the
 * payment was created for (the book entry's name and CPF/CNPJ, kept on the record). Pure: main raises the
 * `payee_mismatch` flag with it, the detail page explains it with it.
 *
 * Names are compared as words: accents, letter case, punctuation and repeated spaces do not count, nor the
 * connecting words of Brazilian names (de, da, do, das, dos, e), and company suffixes are spelt one way
 * ("S/A", "S.A." → sa; "Limitada", "Ltda." → ltda). Anything else — a missing or extra word, another word — is a
 * mismatch: a book entry should hold the name the bank knows, and a mismatch is a flag for a person to look at,
 * never a block.
 *
 * Documents: separators are ignored; `*`, `•`, `●`, `#`, `x` and `X` are hidden positions. The reported value
 * must have a CPF's 11 or a CNPJ's 14 positions, and every visible one must equal the payee's. A CPF-shaped
 * value for a CNPJ payee (or the reverse) is a mismatch; a value with no visible position, or another length, is
 * "unreadable" and decides nothing. (An `X` in an alphanumeric CNPJ is read as hidden: a mask can only ever hide
 * more, never make a different document look equal.)
 */

export type NameCheckPart = 'match' | 'mismatch' | 'absent' | 'unreadable'
export type NameCheckVerdict = 'match' | 'mismatch' | 'unknown'

export interface NameCheck {
  verdict: NameCheckVerdict
  name: NameCheckPart
  taxNumber: NameCheckPart
}

const PARTICLES: ReadonlySet<string> = new Set(['de', 'da', 'do', 'das', 'dos', 'e', 'del', 'di'])
const SAME_WORD: Readonly<Record<string, string>> = { limitada: 'ltda' }

/** The words a name is compared by (see the header). */
export function nameWords(name: string): string[] {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
  // Runs of single letters are one abbreviation: "s a" (from S/A or S.A.) → "sa", "m e" → "me".
  const merged: string[] = []
  let run = ''
  for (const w of words) {
    if (w.length === 1 && /\p{L}/u.test(w) && w !== 'e') run += w
    else {
      if (run) merged.push(run)
      run = ''
      merged.push(w)
    }
  }
  if (run) merged.push(run)
  return merged.map((w) => SAME_WORD[w] ?? w).filter((w) => !PARTICLES.has(w))
}

export function compareNames(expected: string, reported: string | null | undefined): NameCheckPart {
  if (typeof reported !== 'string' || reported.trim() === '') return 'absent'
  const a = nameWords(expected)
  const b = nameWords(reported)
  if (b.length === 0) return 'unreadable'
  return a.length === b.length && a.every((w, i) => w === b[i]) ? 'match' : 'mismatch'
}

const HIDDEN = /[*•●#xX]/
const SEPARATORS = /[.\-/\s]/g

/**
 * `expected` is the payee's canonical CPF/CNPJ (11 digits, or 14 characters); `reported` is what the service
 * sent, masked or not.
 */
export function compareTaxNumbers(expected: string, reported: string | null | undefined): NameCheckPart {
  if (typeof reported !== 'string' || reported.trim() === '') return 'absent'
  const r = reported.replace(SEPARATORS, '').toUpperCase()
  if (r.length !== 11 && r.length !== 14) return 'unreadable'
  if (!/^[0-9A-Z*•●#]+$/.test(r)) return 'unreadable'
  if (r.length !== expected.length) return 'mismatch'
  let visible = 0
  for (let i = 0; i < r.length; i++) {
    const c = r[i] as string
    if (HIDDEN.test(c)) continue
    visible += 1
    if (c !== expected[i]) return 'mismatch'
  }
  return visible === 0 ? 'unreadable' : 'match'
}

/** Both parts and the verdict: any mismatch decides; otherwise a match on either part; otherwise unknown. */
export function checkPayeeName(
  expected: { name: string; taxNumber: string },
  reported: { receiverName?: unknown; receiverTaxNumber?: unknown },
): NameCheck {
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
  const name = compareNames(expected.name, str(reported.receiverName))
  const taxNumber = compareTaxNumbers(expected.taxNumber, str(reported.receiverTaxNumber))
  const verdict: NameCheckVerdict =
    name === 'mismatch' || taxNumber === 'mismatch'
      ? 'mismatch'
      : name === 'match' || taxNumber === 'match'
        ? 'match'
        : 'unknown'
  return { verdict, name, taxNumber }
}
