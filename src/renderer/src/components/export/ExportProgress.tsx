/** A determinate bar once main has said how much there is to write, indeterminate before that. */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { progressFraction } from './logic'

export function ExportProgress({
  progress,
}: {
  progress: { done: number; total: number } | null
}): React.JSX.Element {
  const { t } = useTranslation('records')
  const id = useId()
  const fraction = progressFraction(progress)
  return (
    <div className="export-progress" data-testid="export-progress">
      <label htmlFor={id}>
        {progress && fraction !== null
          ? t('progress.counted', { done: progress.done, total: progress.total })
          : t('progress.waiting')}
      </label>
      {fraction === null ? (
        <progress id={id} />
      ) : (
        <progress id={id} value={progress?.done} max={progress?.total} />
      )}
    </div>
  )
}
