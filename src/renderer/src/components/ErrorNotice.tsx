/**
 * One way to show any failure: our sentence for its code (or main's pt-BR/en `userMessage` for API errors) and
 * when to retry; the service's codes, its own text (often English) and the request id with a copy button are under
 * "Detalhes técnicos", the one place a pt-BR screen shows them.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../shared/contract'
import { currentLanguage } from '../i18n'
import { CopyButton } from './CopyButton'
import { formatDateTime } from './format'

export function ErrorNotice({ error }: { error: IpcError }): React.JSX.Element {
  // When the error was first shown: the retry time is counted from then, not from each re-render.
  const [now] = useState(() => Date.now())
  const { t, i18n } = useTranslation('errors')
  const { t: tl } = useTranslation('layout')
  const lang = currentLanguage()
  const sentence =
    error.userMessage?.[lang] ??
    (i18n.exists(`errors:codes.${error.code}`)
      ? t(`codes.${error.code}`)
      : t('unknownCode', { code: error.code }))
  const codes = [error.messageCode, error.denialCode].filter((c): c is string => !!c)
  const technical = codes.length > 0 || !!error.serviceMessage || !!error.requestId
  return (
    <div className="alert alert-error" role="alert" data-error-code={error.code}>
      <p className="alert-title">{sentence}</p>
      {error.retryAfterSeconds !== undefined && (
        <p>
          {t('retryAt', {
            time: formatDateTime(new Date(now + error.retryAfterSeconds * 1000).toISOString(), lang),
          })}
        </p>
      )}
      {technical && (
        <details className="alert-technical" data-technical="">
          <summary>{tl('technical.summary')}</summary>
          {codes.length > 0 && (
            <p>
              <code>{codes.join(' · ')}</code>
            </p>
          )}
          {error.serviceMessage && (
            <p>
              {t('serviceSays')}: <q>{error.serviceMessage}</q>
            </p>
          )}
          {error.requestId && (
            <p className="request-id">
              {t('requestId')}: <code data-testid="request-id">{error.requestId}</code>{' '}
              <CopyButton text={error.requestId} />
            </p>
          )}
        </details>
      )}
    </div>
  )
}
