/** Deadlines as the analyst reads them: the time left (dates themselves: format.tsx `formatDateTime`). */
import { countdown, formatCountdown } from '../funding/funding-model'

export type TimeLeft =
  { state: 'running'; text: string; compact: string; soon: boolean } | { state: 'expired' | 'none' }

/** "29:53" under an hour, "2h05" under a day, "1d02h" beyond: fits a narrow column. */
export function compactLeft(secs: number): string {
  const two = (n: number): string => String(n).padStart(2, '0')
  if (secs < 3600) return `${two(Math.floor(secs / 60))}:${two(secs % 60)}`
  if (secs < 86_400) return `${Math.floor(secs / 3600)}h${two(Math.floor((secs % 3600) / 60))}`
  return `${Math.floor(secs / 86_400)}d${two(Math.floor((secs % 86_400) / 3600))}h`
}

/** "02:03:04" left (soon when ≤ 10 min), expired, or none when there is no usable deadline. */
export function timeLeft(expiration: string | null, nowMs: number): TimeLeft {
  const c = countdown(expiration, nowMs)
  if (c.state === 'running') {
    const secs = c.days * 86_400 + c.hours * 3600 + c.minutes * 60 + c.seconds
    return { state: 'running', text: formatCountdown(c), compact: compactLeft(secs), soon: secs <= 600 }
  }
  return { state: c.state === 'expired' ? 'expired' : 'none' }
}
