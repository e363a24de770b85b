/** What "Testar conexão" found: who the server says this desk is, or why it failed; raw codes only collapsed. */
import { useTranslation } from 'react-i18next'
import type { TeamTestResult } from '../../../../shared/channels-team'
import { teamTestMessages } from '../../../../shared/team-ledger'
import { currentLanguage } from '../../i18n'
import { Brl } from '../format'
import { TechnicalDetails } from '../layout/TechnicalDetails'

export function TeamTestOutcome({ result }: { result: TeamTestResult }): React.JSX.Element {
  const { t } = useTranslation('teamLedger')
  const lang = currentLanguage()
  const ok = result.verdict === 'ok'
  const above = result.approvalAboveCents
  return (
    <div
      className={ok ? 'alert alert-ok' : 'alert alert-error'}
      role="status"
      data-testid="team-test-result"
      data-verdict={result.verdict}
    >
      <p className="alert-title">{teamTestMessages[result.verdict][lang]}</p>
      {result.identity && (
        <dl>
          <dt>{t('identity')}</dt>
          <dd data-testid="team-identity">{result.identity}</dd>
          {ok && result.schemaVersion !== null && (
            <>
              <dt>{t('schemaVersion')}</dt>
              <dd data-testid="team-schema-version">{result.schemaVersion}</dd>
              <dt>{t('approval')}</dt>
              <dd data-testid="team-approval">
                {above === null ? (
                  t('approvalOff')
                ) : above === 0 ? (
                  t('approvalAll')
                ) : (
                  <>
                    {t('approvalAbove')} <Brl cents={above} />
                  </>
                )}
              </dd>
            </>
          )}
        </dl>
      )}
      {result.detail && (
        <TechnicalDetails testId="team-test-technical">
          <dl>
            <dt>{t('verdict')}</dt>
            <dd>
              <code>{result.verdict}</code>
            </dd>
            <dt>{t('detail')}</dt>
            <dd>
              <code>{result.detail}</code>
            </dd>
          </dl>
        </TechnicalDetails>
      )}
    </div>
  )
}
