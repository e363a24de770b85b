/** Time left to fund, ticking every second; "expired" once past. The exact deadline is shown next to it. */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DateTime } from '../format'
import { countdown, formatCountdown } from './funding-model'

export function ExpirationCountdown({ expiration }: { expiration: string | null }): React.JSX.Element {
  const { t } = useTranslation('funding')
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const c = countdown(expiration, now)

  if (c.state === 'none') return <span>{t('expiration.none')}</span>
  return (
    <span data-testid="countdown" data-state={c.state}>
      {/* role=timer is not announced on every tick; the deadline itself is plain text. */}
      {c.state === 'running' && (
        <span role="timer" className="num">
          {t('expiration.left', { time: formatCountdown(c) })}
        </span>
      )}
      {c.state === 'expired' && <strong className="expired">{t('expiration.expired')}</strong>}
      {c.state === 'invalid' && <span className="mono">{expiration}</span>}
      {c.state !== 'invalid' && (
        <>
          {' '}
          ({t('expiration.at')} <DateTime iso={expiration} />)
        </>
      )}
    </span>
  )
}
