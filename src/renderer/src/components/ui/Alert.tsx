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
  loud = false,
  dataset,
}: {
  tone: AlertTone
  title?: ReactNode
  children?: ReactNode
  technical?: ReactNode
  testId?: string
  /** A problem that must not be missed (a flagged address or key): the heavier border. */
  loud?: boolean
  /** `data-*` attributes for tests and styles (e.g. `{ 'data-flag': 'payee_mismatch' }`). */
  dataset?: Record<`data-${string}`, string>
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  return (
    <div
      className={loud ? `alert alert-${tone} alert-loud` : `alert alert-${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      {...dataset}
    >
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
