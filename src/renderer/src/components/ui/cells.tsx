/**
 * Money and date as one policy everywhere: R$ where a person reads (1 DePix = R$ 1,00; the 8-decimal DePix form is
 * only for what is copied into a wallet), and dd/mm/aaaa hh:mm in Brasília time (format.tsx).
 */
import { useTranslation } from 'react-i18next'
import { currentLanguage } from '../../i18n'
import { Brl, DateTime, formatDateTimeLines } from '../format'

export function MoneyCell({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  return <Brl cents={cents} />
}

export function DateCell({
  iso,
  stacked = false,
}: {
  iso: string | null | undefined
  /** The day over the time, for a narrow column of a list (two-line rows). */
  stacked?: boolean
}): React.JSX.Element {
  const { t } = useTranslation()
  if (!stacked || !iso) return <DateTime iso={iso} />
  const [day, time] = formatDateTimeLines(iso, currentLanguage())
  return (
    <time className="cell-stack" dateTime={iso} title={`${iso} (${t('time.zone')})`}>
      <span className="cell-text">{day}</span>
      <span className="cell-text cell-stack-second">{time}</span>
    </time>
  )
}
