/** Time left to a deadline, ticking every second; "soon" (≤ 10 min) and "expired" are coloured by meaning. */
import { useTranslation } from 'react-i18next'
import { timeLeft } from '../layout/deadline'
import { useNowTick } from '../layout/useNow'

export function Countdown({
  deadline,
  testId = 'countdown',
}: {
  deadline: string | null
  testId?: string
}): React.JSX.Element | null {
  const { t } = useTranslation('layout')
  const now = useNowTick()
  const left = timeLeft(deadline, now)
  if (left.state === 'none') return null
  if (left.state !== 'running') {
    return (
      <span className="deadline deadline-expired" data-testid={testId} data-state="expired">
        {t('list.expiredShort')}
      </span>
    )
  }
  return (
    <span
      className={left.soon ? 'deadline deadline-soon num' : 'deadline num'}
      data-testid={testId}
      data-state="running"
    >
      {t('list.left', { time: left.text })}
    </span>
  )
}
