/**
 * Characters that change how text reads without being seen (issue #24): C0 and C1 controls (line breaks and tabs
 * included), DEL, the line and paragraph separators, the bidirectional controls (embeddings, overrides, isolates,
 * LRM/RLM/ALM) and the invisible ones (zero-width space/joiners, word joiner, invisible operators, BOM, soft
 * hyphen). With them a name such as `Fornecedor ‮00,001 $R` displays as `Fornecedor R$ 100,00` reversed — or a
 * R$ 100,00 row as "Fornecedor R$ 5.000,00".
 *
 * Imports refuse them (runs/import/cells.ts); what is already stored is shown through `visibleText`, which puts a
 * visible `⟦U+XXXX⟧` in place of each, so nothing can reorder or hide the text around it.
 */
export const HIDDEN_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u
const HIDDEN_TEXT_ALL = new RegExp(HIDDEN_TEXT.source, 'gu')

export function hasHiddenText(s: string): boolean {
  return HIDDEN_TEXT.test(s)
}

/** `s` with each hidden character shown as `⟦U+XXXX⟧`. */
export function visibleText(s: string): string {
  return s.replace(
    HIDDEN_TEXT_ALL,
    (c) => `⟦U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  )
}
