/**
 * A message with its tone; raw codes, ids and the service's own words go under `technical`, collapsed in
 * "Detalhes técnicos" (the only place a pt-BR screen may show them).
 */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

export type AlertTone = 'error' | 'warn' | 'ok' | 'info'

export function Alert({
  tone,
  title,
  children,
  technical,
  testId,
}: {
  tone: AlertTone
  title?: ReactNode
  children?: ReactNode
  technical?: ReactNode
  testId?: string
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {title && <p className="alert-title">{title}</p>}
      {children}
      {technical && (
        <details className="alert-technical" data-technical="">
          <summary>{t('technical.summary')}</summary>
          {technical}
        </details>
      )}
    </div>
  )
}
