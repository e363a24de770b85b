/**
 * Free text from a spreadsheet, another desk or the service (names, notes, references, keys), shown so that it
 * cannot read as something else (issue #24): each control, bidirectional or invisible character becomes a visible
 * `⟦U+XXXX⟧` (shared/visible-text.ts), and the whole is isolated (`<bdi>`) so that even right-to-left letters
 * cannot reorder the amounts and words around it. Imports refuse such characters; this is for what is stored.
 */
import { visibleText } from '../../../shared/visible-text'

export function SafeText({ text }: { text: string | null | undefined }): React.JSX.Element {
  return <bdi>{visibleText(text ?? '')}</bdi>
}
