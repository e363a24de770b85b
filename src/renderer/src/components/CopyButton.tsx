import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * Copies `text`; where the clipboard is refused the value stays selectable and the button says so. `note` says
 * what is copied when that differs from what is shown (an amount shown as "4.364,65000000 DePix" copies the
 * wallet form "4364.65000000"): shown next to the button and read as its description.
 */
export function CopyButton({
  text,
  label,
  note,
}: {
  text: string
  label?: string
  note?: string
}): React.JSX.Element {
  const { t } = useTranslation()
  const noteId = useId()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  const button = (
    <button
      type="button"
      className="btn btn-small"
      onClick={() => void copy()}
      aria-live="polite"
      aria-describedby={note === undefined ? undefined : noteId}
    >
      {state === 'copied'
        ? t('actions.copied')
        : state === 'failed'
          ? t('actions.copyFailed')
          : (label ?? t('actions.copy'))}
    </button>
  )
  if (note === undefined) return button
  return (
    <>
      {button}{' '}
      <span id={noteId} className="field-hint copy-note" data-testid="copy-note">
        {note}
      </span>
    </>
  )
}
