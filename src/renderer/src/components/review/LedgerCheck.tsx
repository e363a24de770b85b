/**
 * "Conferir com o livro-caixa deste computador": main checks that the open export's audit trail is part of this
 * computer's ledger history (review:checkLedger) — or, on a team profile, of the team ledger's (issue #16). Green only for a match; anything else is an error (the export
 * is not what this ledger recorded) or, for an export without an audit trail, a neutral note. The verifier's own
 * words (English) stay under "Detalhes técnicos". Mount it with a new key for each review opened.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { ReviewLedgerCheck } from '../../../../shared/channels-review'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { DateTime } from '../format'
import { ProblemLines } from './ProblemLines'
import { useTeam } from '../../stores/team'

const CLASS: Record<ReviewLedgerCheck['verdict'], string> = {
  match: 'alert alert-ok',
  no_audit: 'alert alert-info',
  not_in_ledger: 'alert alert-error',
  different_history: 'alert alert-error',
  entries_differ: 'alert alert-error',
  ledger_broken: 'alert alert-error',
}

export function LedgerCheck(): React.JSX.Element {
  const { t } = useTranslation('review')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [result, setResult] = useState<ReviewLedgerCheck | null>(null)
  const onTeam = useTeam((s) => s.status?.engine === 'postgres')

  const check = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('review:checkLedger')
    setBusy(false)
    if (!r.ok) return setError(r.error)
    setResult(r.data)
  }

  return (
    <section className="card" aria-labelledby="review-ledger-check">
      <h3 id="review-ledger-check">{t('ledgerCheck.heading')}</h3>
      <p>{t(onTeam ? 'ledgerCheck.team.intro' : 'ledgerCheck.intro')}</p>
      <button type="button" className="btn" disabled={busy} onClick={() => void check()}>
        {busy ? t('ledgerCheck.checking') : t(onTeam ? 'ledgerCheck.team.button' : 'ledgerCheck.button')}
      </button>
      {error && <ErrorNotice error={error} />}
      {result && (
        <div
          className={CLASS[result.verdict]}
          role="status"
          data-testid="ledger-check"
          data-verdict={result.verdict}
        >
          <p className="alert-title">
            <span aria-hidden="true">
              {result.verdict === 'match' ? '✓ ' : result.verdict === 'no_audit' ? 'ℹ ' : '✕ '}
            </span>
            {onTeam && result.verdict === 'match'
              ? t('ledgerCheck.team.matchTitle')
              : t(`ledgerCheck.verdicts.${result.verdict}.title`)}
          </p>
          <p>
            {onTeam && result.verdict === 'ledger_broken'
              ? t('ledgerCheck.team.brokenBody')
              : t(`ledgerCheck.verdicts.${result.verdict}.body`, {
                  exportSeq: result.exportHead?.seq ?? 0,
                  ledgerSeq: result.ledgerHead.seq,
                  count: result.problems.length,
                })}
          </p>
          <p>
            {t('ledgerCheck.checkedAt')}: <DateTime iso={result.checkedAt} />
          </p>
          <details>
            <summary>{t('failed.technical')}</summary>
            <dl className="mono" lang="en">
              <dt>verdict</dt>
              <dd>{result.verdict}</dd>
              <dt>export audit head</dt>
              <dd>{result.exportHead ? `${result.exportHead.seq} ${result.exportHead.hash}` : '—'}</dd>
              <dt>ledger audit head</dt>
              <dd>{`${result.ledgerHead.seq} ${result.ledgerHead.hash}`}</dd>
              <dt>entries matched</dt>
              <dd>{result.entriesMatched}</dd>
            </dl>
            <ProblemLines problems={result.problems} testId="ledger-check-problems" />
          </details>
        </div>
      )}
    </section>
  )
}
