/**
 * What an import of payees did: how many were kept, and each refused line with its number, the name on it, and
 * per field the reason in words, so the file can be fixed and imported again.
 */
import { useTranslation } from 'react-i18next'
import type { PayeeImportResultView } from '../../../../shared/channels-payees'
import { currentLanguage } from '../../i18n'
import { fieldLabel } from './field-label'
import { problemText } from './payee-model'

export function ImportResult({
  result,
  onClose,
}: {
  result: PayeeImportResultView
  onClose: () => void
}): React.JSX.Element {
  const { t } = useTranslation('payees')
  const label = (field: string): string => fieldLabel(t, field)
  const lang = currentLanguage()
  return (
    <section className="card" aria-labelledby="payee-import-title" data-testid="payee-import-result">
      <h3 id="payee-import-title">{t('import.title', { file: result.fileName })}</h3>
      <p className={result.imported.length > 0 ? 'field-ok' : 'field-hint'} data-testid="payee-import-count">
        {t('import.imported', { count: result.imported.length })}
      </p>
      {result.rejected.length > 0 && (
        <div className="alert alert-warn" role="alert">
          <p className="alert-title">{t('import.rejected', { count: result.rejected.length })}</p>
          <ul data-testid="payee-import-rejected">
            {result.rejected.map((row) => (
              <li key={row.line} data-line={row.line}>
                <strong>{t('import.line', { line: row.line })}</strong>
                {row.name !== '' && <> ({row.name})</>}:{' '}
                {row.problems.map((p, i) => (
                  <span key={`${p.field}-${i}`} data-code={p.code}>
                    {i > 0 && '; '}
                    {label(p.field)} — {problemText(p.code, lang)}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.ignoredColumns.length > 0 && (
        <p className="field-hint">{t('import.ignored', { columns: result.ignoredColumns.join(', ') })}</p>
      )}
      <button type="button" className="btn btn-small" onClick={onClose}>
        {t('repeat.dismiss')}
      </button>
    </section>
  )
}
