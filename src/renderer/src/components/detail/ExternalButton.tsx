/**
 * Opens a receipt or explorer page in the OS browser through main (`shell:openExternal`), which checks https and
 * the host. A button, never an <a href>: the renderer must not navigate anywhere itself.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'

export function ExternalButton({
  url,
  localId,
  label,
}: {
  url: string
  /** The record whose receipt this is: main accepts a receipt URL only if that record holds it. */
  localId?: string
  label: string
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  const [state, setState] = useState<'idle' | 'opened' | 'refused'>('idle')
  const [error, setError] = useState<IpcError | null>(null)
  const open = async (): Promise<void> => {
    setError(null)
    const r = await call('shell:openExternal', localId ? { url, localId } : { url })
    if (!r.ok) {
      setState('idle')
      setError(r.error)
    } else setState(r.data.opened ? 'opened' : 'refused')
  }
  return (
    <span className="external">
      <button type="button" className="btn btn-small" onClick={() => void open()} title={url}>
        {label} <span aria-hidden="true">↗</span>
      </button>
      <span aria-live="polite">
        {state === 'opened' && <span className="field-ok"> {t('external.opened')}</span>}
        {state === 'refused' && <span className="field-error"> {t('external.refused')}</span>}
      </span>
      {error && <ErrorNotice error={error} />}
    </span>
  )
}
