/**
 * What one status observation says beyond its badge, for both record kinds' timelines: whether it was applied,
 * and, collapsed under "Detalhes técnicos" for support, the raw status, request id and body.
 */
import { useTranslation } from 'react-i18next'
import type { StatusObservation } from '../../../../shared/withdrawal-record'
import { CopyButton } from '../CopyButton'
import { prettyJson } from './raw'

export function ObservationFacts({ o }: { o: StatusObservation }): React.JSX.Element {
  const { t } = useTranslation('detail')
  const { t: tl } = useTranslation('layout')
  return (
    <>
      {!o.applied && (
        <p className="not-applied">
          <strong>{t('timeline.notApplied')}</strong>
        </p>
      )}
      <details className="timeline-technical" data-technical="">
        <summary>{tl('technical.summary')}</summary>
        <dl className="timeline-facts">
          <dt>{t('timeline.rawStatus')}</dt>
          <dd>
            <code>{o.remoteStatus === '' ? '""' : o.remoteStatus}</code>
          </dd>
          {o.requestId && (
            <>
              <dt>{t('timeline.requestId')}</dt>
              <dd>
                <code className="mono">{o.requestId}</code> <CopyButton text={o.requestId} />
              </dd>
            </>
          )}
        </dl>
        {o.body && <pre className="raw-json">{prettyJson(o.body)}</pre>}
      </details>
    </>
  )
}
