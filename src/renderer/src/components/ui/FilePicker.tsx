/**
 * A file input in the app's language: the native control says "Choose File / No file chosen" in the browser's
 * language whatever the app's, so it is hidden (still the labelled, focusable input) behind our own words.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'

export function FilePicker({
  label,
  accept,
  disabled,
  onPick,
  testId,
}: {
  label: string
  accept: string
  disabled?: boolean
  onPick: (file: File | undefined) => void
  testId?: string
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  const id = useId()
  const [name, setName] = useState<string | null>(null)
  return (
    <div className="field file-picker">
      <span className="file-picker-label" id={`${id}-label`}>
        {label}
      </span>
      <span className="file-picker-row">
        <input
          id={id}
          type="file"
          className="file-picker-input"
          accept={accept}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-name`}
          data-testid={testId}
          onChange={(e) => {
            const file = e.target.files?.[0]
            setName(file?.name ?? null)
            onPick(file)
            // The same file picked again (after fixing it) must be read again.
            e.target.value = ''
          }}
        />
        <label htmlFor={id} className="btn" aria-hidden="true">
          {t('file.choose')}
        </label>
        <span id={`${id}-name`} className="file-picker-name">
          {name ?? t('file.none')}
        </span>
      </span>
    </div>
  )
}
