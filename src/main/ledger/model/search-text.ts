/** Folding rules for searchable text, the same for records and payees on both engines. */

/** Lower-case, accents removed: "João" is found by "joao" and "JOÃO". Applied to stored text and queries alike. */
export function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
}

/** A Pix key or typed query made only of digits and punctuation (CPF, CNPJ, phone) is also searched digits-only. */
export function digitsVariant(s: string): string | null {
  if (!/^[\d\s.\-/()+]+$/.test(s)) return null
  const digits = s.replace(/\D/g, '')
  return digits.length >= 3 && digits !== s ? digits : null
}
