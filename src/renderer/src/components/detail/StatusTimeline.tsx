/**
 * Every status answer we stored, oldest first: when (São Paulo time), the raw status and its words, the request
 * id of the call, and whether it was applied (out-of-order answers are kept but never move the record back).
 */
import { useTranslation } from 'react-i18next'
import type { StatusObservation } from '../../../../shared/withdrawal-record'
import { DateTime } from '../format'
import { StatusBadge } from '../StatusBadge'
import { ObservationFacts } from './ObservationFacts'

export function sortObservations(list: readonly StatusObservation[]): StatusObservation[] {
  return [...list].sort((a, b) =>
    a.observedAt === b.observedAt ? a.id - b.id : a.observedAt < b.observedAt ? -1 : 1,
  )
}

export function StatusTimeline({
  observations,
}: {
  observations: readonly StatusObservation[]
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  if (observations.length === 0) return <p>{t('timeline.empty')}</p>
  return (
    <ol className="timeline" data-testid="status-timeline">
      {sortObservations(observations).map((o) => {
        const hasRefund = !!o.body && typeof o.body['refund'] === 'object' && o.body['refund'] !== null
        return (
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
                <StatusBadge status={o.remoteStatus} localState="created" hasRefund={hasRefund} />
              )}
            </div>
            <ObservationFacts o={o} />
          </li>
        )
      })}
    </ol>
  )
}
