/**
 * Money and time as finance staff read them: BRL as `R$ 1.234,56`, DePix as `4.364,65000000 DePix` (en
 * `4,364.65000000 DePix`), times in America/Sao_Paulo with the zone. Every displayed amount goes through these
 * (or formatBRL/formatDePix in a sentence); the wallet form `4364.65000000` (centsToDePix) is only for copying.
 */
import { useTranslation } from 'react-i18next'
import { formatBRL, formatDePix } from '../../../shared/money'
import { currentLanguage } from '../i18n'
import { shortDateTime } from './layout/deadline'

export const DISPLAY_TIME_ZONE = 'America/Sao_Paulo'

export function Brl({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  useTranslation()
  if (cents === null || cents === undefined) return <span>—</span>
  return <span className="num">{formatBRL(cents, currentLanguage())}</span>
}

export function DePix({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  useTranslation()
  if (cents === null || cents === undefined) return <span>—</span>
  return <span className="num">{formatDePix(cents, currentLanguage())}</span>
}

export function formatDateTime(iso: string, lang: 'pt-BR' | 'en'): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return new Intl.DateTimeFormat(lang, {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(d)
}

/** A timestamp in São Paulo time, the zone named, the raw ISO value on hover. */
export function DateTime({
  iso,
  short,
}: {
  iso: string | null | undefined
  short?: boolean
}): React.JSX.Element {
  const { t } = useTranslation()
  if (!iso) return <span>—</span>
  return (
    <time dateTime={iso} title={`${iso} (${t('time.zone')})`}>
      {short ? shortDateTime(iso, currentLanguage(), true) : formatDateTime(iso, currentLanguage())}
    </time>
  )
}
