/**
 * "Detalhes técnicos": ids, raw codes and JSON, still there (and copyable) for support. Collapsed by default; `open`
 * where it already sits behind a choice of its own (a tab of the payment detail), as a card with its heading.
 */
import { useTranslation } from 'react-i18next'

export function TechnicalDetails({
  children,
  testId = 'technical-details',
  open = false,
}: {
  children: React.ReactNode
  testId?: string
  open?: boolean
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  if (open) {
    return (
      <section className="card" data-testid={testId} data-technical="" aria-labelledby={`${testId}-title`}>
        <h3 id={`${testId}-title`}>{t('technical.summary')}</h3>
        <p className="field-hint">{t('technical.hint')}</p>
        {children}
      </section>
    )
  }
  return (
    <details className="technical card" data-testid={testId} data-technical="">
      <summary>{t('technical.summary')}</summary>
      <p className="field-hint">{t('technical.hint')}</p>
      {children}
    </details>
  )
}
