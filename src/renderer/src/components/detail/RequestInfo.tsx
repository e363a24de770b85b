/** What was sent and how to find it again: the exact request body, every id, the create error, the flags. */
import { useTranslation } from 'react-i18next'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { CopyButton } from '../CopyButton'
import { ErrorNotice } from '../ErrorNotice'
import { prettyJson, recordErrorAsIpcError } from './raw'

function Id({ value, testId }: { value: string | null; testId: string }): React.JSX.Element {
  if (!value) return <span>—</span>
  return (
    <>
      <code className="mono" data-testid={testId}>
        {value}
      </code>{' '}
      <CopyButton text={value} />
    </>
  )
}

export function RequestInfo({ record }: { record: WithdrawalRecord }): React.JSX.Element {
  const { t } = useTranslation('detail')
  return (
    <div data-testid="request-info">
      <dl>
        <dt>{t('request.localId')}</dt>
        <dd>
          <Id value={record.localId} testId="local-id" />
        </dd>
        <dt>{t('request.remoteId')}</dt>
        <dd>
          <Id value={record.remoteId} testId="remote-id" />
        </dd>
        <dt>{t('request.requestId')}</dt>
        <dd>
          <Id value={record.requestId} testId="create-request-id" />
        </dd>
        <dt>{t('request.flags')}</dt>
        <dd>
          {record.flags.length === 0
            ? t('request.noFlags')
            : record.flags.map((f) => <code key={f}>{f} </code>)}
        </dd>
      </dl>
      {record.error && (
        <>
          <h4>{t('request.createError')}</h4>
          <ErrorNotice error={recordErrorAsIpcError(record.error)} />
        </>
      )}
      <h4>{t('request.body')}</h4>
      <pre className="raw-json" data-testid="request-body">
        {prettyJson(record.request)}
      </pre>
    </div>
  )
}
