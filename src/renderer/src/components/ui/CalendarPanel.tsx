/** The calendar inside the date field's popover (loaded on first open): react-day-picker with its locales. */
import { DayPicker } from 'react-day-picker'
import { enUS, ptBR } from 'react-day-picker/locale'
import 'react-day-picker/style.css'
import { dateToDay, dayToDate } from './date-text'

export default function CalendarPanel({
  day,
  lang,
  onPick,
}: {
  day: string
  lang: 'pt-BR' | 'en'
  onPick: (day: string) => void
}): React.JSX.Element {
  const selected = dayToDate(day)
  return (
    <DayPicker
      mode="single"
      locale={lang === 'pt-BR' ? ptBR : enUS}
      selected={selected}
      defaultMonth={selected}
      onSelect={(d) => d && onPick(dateToDay(d))}
      autoFocus
    />
  )
}
