/**
 * Money and time as finance staff read them: BRL as `R$ 1.234,56`, DePix as `4.364,65000000 DePix` (en
 * `4,364.65000000 DePix`), times in America/Sao_Paulo with the zone. Every displayed amount goes through these
 * (or formatBRL/formatDePix in a sentence); the wallet form `4364.65000000` (centsToDePix) is only for copying.
 */
import { useTranslation } from 'react-i18next'
import { formatBRL, formatDePix } from '../../../shared/money'
import { currentLanguage } from '../i18n'

export const DISPLAY_TIME_ZONE = 'America/Sao_Paulo'

export function Brl({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  useTranslation()
  if (cents === null || cents === undefined) return <span>—</span>
  return <span className="num money">{formatBRL(cents, currentLanguage())}</span>
}

export function DePix({ cents }: { cents: number | null | undefined }): React.JSX.Element {
  useTranslation()
  if (cents === null || cents === undefined) return <span>—</span>
  return <span className="num money">{formatDePix(cents, currentLanguage())}</span>
}

const ptBrParts = new Intl.DateTimeFormat('pt-BR', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const enFormat = new Intl.DateTimeFormat('en', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
})

/**
 * The one date policy (issue #26): pt-BR "27/11/2026 12:54" in Brasília time (the operators' business day; the zone
 * is named once where times are listed and on hover), en in the viewer's own zone with its name
 * ("Nov 27, 2026, 12:54 GMT-3"). Seconds and ISO values stay in "Detalhes técnicos" and in the hover title.
 */
export function formatDateTime(iso: string, lang: 'pt-BR' | 'en'): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  if (lang === 'en') return enFormat.format(d)
  const p = Object.fromEntries(ptBrParts.formatToParts(d).map((x) => [x.type, x.value]))
  return `${p['day']}/${p['month']}/${p['year']} ${p['hour']}:${p['minute']}`
}

/**
 * The same text on two lines for a narrow column: the day, then the time (and, in en, its zone). Never a different
 * format: the first line is what `formatDateTime` writes before its time.
 */
export function formatDateTimeLines(iso: string, lang: 'pt-BR' | 'en'): [string, string] {
  const text = formatDateTime(iso, lang)
  if (Number.isNaN(new Date(iso).getTime())) return [text, '']
  const cut = lang === 'en' ? text.lastIndexOf(', ') : text.lastIndexOf(' ')
  if (cut < 0) return [text, '']
  return [text.slice(0, cut), text.slice(cut + (lang === 'en' ? 2 : 1))]
}

/** A timestamp in São Paulo time, the zone named, the raw ISO value on hover. */
export function DateTime({
  iso,
}: {
  iso: string | null | undefined
  /** Kept for callers; every date reads the same (one policy). */
  short?: boolean
}): React.JSX.Element {
  const { t } = useTranslation()
  if (!iso) return <span>—</span>
  return (
    <time dateTime={iso} title={`${iso} (${t('time.zone')})`}>
      {formatDateTime(iso, currentLanguage())}
    </time>
  )
}
