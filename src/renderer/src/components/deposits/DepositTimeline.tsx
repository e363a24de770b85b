/**
 * Every deposit status answer we stored, oldest first, in the deposit's own words (not the withdrawals'): when,
 * the status, whether it was applied; the raw status, request id and body under "Detalhes técnicos".
 */
import { useTranslation } from 'react-i18next'
import type { StatusObservation } from '../../../../shared/withdrawal-record'
import { ObservationFacts } from '../detail/ObservationFacts'
import { sortObservations } from '../detail/StatusTimeline'
import { DateTime } from '../format'
import { DepositStatusBadge } from './DepositStatus'

export function DepositTimeline({
  observations,
}: {
  observations: readonly StatusObservation[]
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  if (observations.length === 0) return <p>{t('timeline.empty')}</p>
  return (
    <ol className="timeline" data-testid="deposit-timeline">
      {sortObservations(observations).map((o) => (
        <li
          key={o.id}
          className={o.applied ? 'timeline-item' : 'timeline-item timeline-not-applied'}
          data-status={o.remoteStatus}
          data-applied={o.applied}
        >
          <div className="timeline-head">
            <DateTime iso={o.observedAt} />{' '}
            {o.remoteStatus === '' ? (
              <span className="field-hint">{t('timeline.emptyStatus')}</span>
            ) : (
              <DepositStatusBadge
                record={{ localState: 'created', remoteStatus: o.remoteStatus }}
                testId="timeline-status"
              />
            )}
          </div>
          <ObservationFacts o={o} />
        </li>
      ))}
    </ol>
  )
}
