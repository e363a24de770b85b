/** Where the export went: the manifest (the file a reviewer opens first) and every file written. */
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelOutput } from '../../../../shared/contract'
import { useRoute } from '../../stores/route'
import { CopyButton } from '../CopyButton'

export function ExportResult({ result }: { result: ChannelOutput<'records:export'> }): React.JSX.Element {
  const { t } = useTranslation('records')
  const go = useRoute((s) => s.go)
  const heading = useRef<HTMLHeadingElement>(null)

  // The result replaces the progress bar: focus follows so a screen reader lands on it.
  useEffect(() => heading.current?.focus(), [result])

  return (
    <section className="alert alert-ok" aria-labelledby="export-result-title" data-testid="export-result">
      <h3 id="export-result-title" tabIndex={-1} ref={heading} className="alert-title">
        {t('result.title', { count: result.rowCount })}
      </h3>
      <p>
        {t('result.manifest')}:{' '}
        <code className="mono" data-testid="manifest-path">
          {result.manifestPath}
        </code>{' '}
        <CopyButton text={result.manifestPath} label={t('result.copyPath')} />
      </p>
      <p>{t('result.files')}:</p>
      <ul className="file-list" data-testid="export-files">
        {result.files.map((f) => (
          <li key={f} className="mono">
            {f}
          </li>
        ))}
      </ul>
      <p>{t('result.reviewHint')}</p>
      <div className="actions">
        <button type="button" className="btn" onClick={() => go({ page: 'review' })}>
          {t('openReview')}
        </button>
      </div>
    </section>
  )
}
