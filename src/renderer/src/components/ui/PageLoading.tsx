/**
 * What a page shows while its script loads on first visit (pages opened now and then are separate chunks, so
 * the first screen's script stays within its budget). Said only after a short pause: a local chunk usually
 * arrives before a person could read it, and a flash of "Carregando…" on every first visit is noise.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

const SHOW_AFTER_MS = 200

export function PageLoading(): React.JSX.Element {
  const { t } = useTranslation('common')
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS)
    return () => clearTimeout(timer)
  }, [])
  return (
    <div className="page-loading" role="status" aria-busy="true" data-testid="page-loading">
      {shown ? t('app.loading') : null}
    </div>
  )
}
