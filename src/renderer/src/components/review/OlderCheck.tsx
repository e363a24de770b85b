/**
 * "Comparar com uma exportação anterior": the auditor picks, in main's own folder dialog, an older export they
 * kept off this computer; main verifies it like any hostile folder and checks that the open export's history
 * only grew from the older one's audit head (review:compareOlder, records/against.ts). The renderer sends the
 * dialog's one-use token, never a path. Green only when growth is proven; amber when it cannot be shown (wrong
 * order, another key, a head this export does not carry, no audit trail); red when something does not check out.
 * The verifier's English lines and the heads stay under "Detalhes técnicos". Mount it with a new key for each
 * review opened.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { ReviewOlderCheck } from '../../../../shared/channels-review'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { DateTime } from '../format'
import { ProblemLines } from './ProblemLines'

type Verdict = ReviewOlderCheck['verdict']

const TONE: Record<Verdict, 'ok' | 'warn' | 'error'> = {
  extends: 'ok',
  head_not_carried: 'warn',
  older_is_newer: 'warn',
  other_signer: 'warn',
  no_audit: 'warn',
  diverged: 'error',
  older_not_intact: 'error',
  open_not_intact: 'error',
}
const ICON = { ok: '✓ ', warn: '⚠ ', error: '✕ ' } as const

const head = (h: ReviewOlderCheck['openHead']): string => (h ? `${h.seq} ${h.hash}` : '—')

function Result({ result }: { result: ReviewOlderCheck }): React.JSX.Element {
  const { t } = useTranslation('review')
  const tone = TONE[result.verdict]
  return (
    <div
      className={`alert alert-${tone}`}
      role="status"
      data-testid="older-check"
      data-verdict={result.verdict}
    >
      <p className="alert-title">
        <span aria-hidden="true">{ICON[tone]}</span>
        {t(`olderCheck.verdicts.${result.verdict}.title`)}
      </p>
      <p>
        {t(`olderCheck.verdicts.${result.verdict}.body`, {
          olderSeq: result.olderHead?.seq ?? 0,
          openSeq: result.openHead?.seq ?? 0,
          common: result.commonRecords,
        })}
      </p>
      {result.older && (
        <dl data-testid="older-check-facts">
          <dt>{t('olderCheck.olderExportedAt')}</dt>
          <dd>
            <DateTime iso={result.older.exportedAt} />
          </dd>
          <dt>{t('manifest.profile')}</dt>
          <dd>{result.older.profile}</dd>
          <dt>{t('manifest.rowCount')}</dt>
          <dd className="num">{result.older.rowCount}</dd>
        </dl>
      )}
      {result.verdict === 'other_signer' && (
        <p>
          {t('olderCheck.olderSigner')}: <code className="mono">{result.olderSigner || '—'}</code>
        </p>
      )}
      <p>
        {t('olderCheck.checkedAt')}: <DateTime iso={result.checkedAt} />
      </p>
      <details data-technical="">
        <summary>{t('failed.technical')}</summary>
        <dl className="mono" lang="en">
          <dt>verdict</dt>
          <dd>{result.verdict}</dd>
          <dt>older export audit head</dt>
          <dd>{head(result.olderHead)}</dd>
          <dt>open export audit head</dt>
          <dd>{head(result.openHead)}</dd>
          <dt>records in both</dt>
          <dd>{result.commonRecords}</dd>
          <dt>older export signer</dt>
          <dd>{result.olderSigner || '—'}</dd>
        </dl>
        <ProblemLines problems={result.problems} testId="older-check-problems" />
      </details>
    </div>
  )
}

export function OlderCheck(): React.JSX.Element {
  const { t } = useTranslation('review')
  const [busy, setBusy] = useState(false)
  const [cancelled, setCancelled] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [result, setResult] = useState<ReviewOlderCheck | null>(null)

  const compare = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    setCancelled(false)
    const chosen = await call('dialog:chooseFolder', { purpose: 'review' })
    if (!chosen.ok || chosen.data === null) {
      setBusy(false)
      return chosen.ok ? setCancelled(true) : setError(chosen.error)
    }
    // The previous answer goes: it was about another folder.
    setResult(null)
    const r = await call('review:compareOlder', { folder: chosen.data.token })
    setBusy(false)
    if (!r.ok) return setError(r.error)
    setResult(r.data)
  }

  return (
    <section className="card" aria-labelledby="review-older-check">
      <h3 id="review-older-check">{t('olderCheck.heading')}</h3>
      <p>{t('olderCheck.intro')}</p>
      <button type="button" className="btn" disabled={busy} onClick={() => void compare()}>
        {busy ? t('olderCheck.checking') : t('olderCheck.button')}
      </button>
      {cancelled && <p role="status">{t('cancelled')}</p>}
      {error && <ErrorNotice error={error} />}
      {result && <Result result={result} />}
    </section>
  )
}
