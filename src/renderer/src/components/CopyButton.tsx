import { useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Copies `text`; where the clipboard is refused the value stays selectable and the button says so. */
export function CopyButton({ text, label }: { text: string; label?: string }): React.JSX.Element {
  const { t } = useTranslation()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} aria-live="polite">
      {state === 'copied'
        ? t('actions.copied')
        : state === 'failed'
          ? t('actions.copyFailed')
          : (label ?? t('actions.copy'))}
    </button>
  )
}
