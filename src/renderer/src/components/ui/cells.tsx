/**
 * Money and date as one policy everywhere: R$ where a person reads (1 DePix = R$ 1,00; the 8-decimal DePix form is
 * only for what is copied into a wallet), and dd/mm/aaaa hh:mm in Brasília time (format.tsx).
 */
import { Brl, DateTime } from '../format'

export function MoneyCell({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  return <Brl cents={cents} />
}

export function DateCell({ iso }: { iso: string | null | undefined }): React.JSX.Element {
  return <DateTime iso={iso} />
}
