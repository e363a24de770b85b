/** "Detalhes técnicos": ids, raw codes and JSON, collapsed by default, still there (and copyable) for support. */
import { useTranslation } from 'react-i18next'

export function TechnicalDetails({
  children,
  testId = 'technical-details',
}: {
  children: React.ReactNode
  testId?: string
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  return (
    <details className="technical card" data-testid={testId} data-technical="">
      <summary>{t('technical.summary')}</summary>
      <p className="field-hint">{t('technical.hint')}</p>
      {children}
    </details>
  )
}
