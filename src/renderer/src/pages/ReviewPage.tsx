/**
 * Revisão offline: open an export folder (main shows the OS dialog and hands back a one-use token), see the
 * verification verdict first — intact and signed by the expected key (green), intact but signed by an unknown key
 * (amber, with the expected fingerprint to enter), or FAILED with every problem — then the manifest facts and the
 * export's records in the same table as the live list. No sign-in, no network needed.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { create } from 'zustand'
import type { IpcError, ReviewSigner, ReviewSummary } from '../../../shared/contract'
import { liquidNetworkSchema } from '../../../shared/profile'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { ReadOnlyRecordPanel } from '../components/detail/ReadOnlyRecordPanel'
import { ErrorNotice } from '../components/ErrorNotice'
import { DateTime } from '../components/format'
import { RecordsTable } from '../components/records-table/RecordsTable'
import { DepositReviewList } from '../components/deposits/DepositReviewList'
import { LedgerCheck } from '../components/review/LedgerCheck'
import { OlderCheck } from '../components/review/OlderCheck'
import { SignerVerdict } from '../components/review/SignerVerdict'
import { useTableStore } from '../components/records-table/table-store'
import { call } from '../ipc'
import { PageHeader } from '../components/ui/PageHeader'

const REVIEW_TABLE = 'review'
const PROBLEM_CHECKS = ['missing', 'hash', 'signature', 'schema', 'row_count', 'totals', 'audit']

/** The open review survives leaving the page: main keeps the export open until review:close. */
const useReview = create<{
  summary: ReviewSummary | null
  opened: number
  set: (s: ReviewSummary | null) => void
  setSigner: (signer: ReviewSigner) => void
}>((set) => ({
  summary: null,
  opened: 0,
  set: (summary) => set((s) => ({ summary, opened: s.opened + 1 })),
  setSigner: (signer) => set((s) => (s.summary ? { summary: { ...s.summary, signer } } : s)),
}))

function Verdict({ summary }: { summary: ReviewSummary }): React.JSX.Element {
  const { t } = useTranslation('review')
  const { setSigner, opened } = useReview()
  if (summary.ok) return <SignerVerdict key={opened} summary={summary} onSigner={setSigner} />
  return (
    <div className="alert alert-error" data-testid="review-failed">
      <p className="alert-title">
        <span aria-hidden="true">✕ </span>
        {t('failed.title')}
      </p>
      <p>{t('failed.intro')}</p>
      <table className="data problems-table" data-testid="review-problems">
        <caption className="visually-hidden">{t('failed.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('failed.file')}</th>
            <th scope="col">{t('failed.check')}</th>
            <th scope="col">{t('failed.detail')}</th>
          </tr>
        </thead>
        <tbody>
          {summary.problems.map((p, i) => (
            <tr key={`${p.file}|${p.check}|${i}`} data-check={p.check}>
              <td className="mono">{p.file}</td>
              <td>{PROBLEM_CHECKS.includes(p.check) ? t(`failed.checks.${p.check}`) : p.check}</td>
              <td>
                {/* The verifier's own words (English, as the command line prints them), for support. */}
                <details>
                  <summary>{t('failed.technical')}</summary>
                  <code lang="en">{p.detail}</code>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {summary.signerFingerprint && (
        <p>
          {t('failed.fingerprint')}: <code className="mono">{summary.signerFingerprint}</code>
        </p>
      )}
    </div>
  )
}

function ManifestFacts({ summary }: { summary: ReviewSummary }): React.JSX.Element {
  const { t } = useTranslation('review')
  const m = summary.manifest
  return (
    <section className="card" aria-labelledby="review-manifest">
      <h3 id="review-manifest">{t('manifest.heading')}</h3>
      {!summary.ok && <p className="field-error">{t('manifest.unverified')}</p>}
      <dl data-testid="review-manifest">
        <dt>{t('folder')}</dt>
        <dd className="mono">{summary.dir}</dd>
        {m ? (
          <>
            <dt>{t('manifest.appVersion')}</dt>
            <dd>{m.appVersion ?? '—'}</dd>
            <dt>{t('manifest.profile')}</dt>
            <dd>{m.profile ?? '—'}</dd>
            <dt>{t('manifest.network')}</dt>
            <dd>{m.network ?? '—'}</dd>
            <dt>{t('manifest.exportedAt')}</dt>
            <dd>
              <DateTime iso={m.exportedAt} />
            </dd>
            <dt>{t('manifest.rowCount')}</dt>
            <dd className="num">{m.rowCount ?? '—'}</dd>
          </>
        ) : (
          <>
            <dt>{t('manifest.heading')}</dt>
            <dd>{t('manifest.missing')}</dd>
          </>
        )}
        <dt>{t('manifest.rowsRead')}</dt>
        <dd className="num" data-testid="review-rows-read">
          {summary.rowCount}
        </dd>
      </dl>
    </section>
  )
}

function verdict(summary: ReviewSummary | null): string {
  if (!summary) return 'none'
  if (!summary.ok) return 'failed'
  return summary.signer.match === 'match' ? 'verified' : 'unknown_signer'
}

export function ReviewPage(): React.JSX.Element {
  const { t } = useTranslation('review')
  const { summary, opened, set } = useReview()
  const resetTable = useTableStore((s) => s.reset)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [cancelled, setCancelled] = useState(false)
  const [selected, setSelected] = useState<WithdrawalRecord | null>(null)

  const open = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    setCancelled(false)
    const chosen = await call('dialog:chooseFolder', { purpose: 'review' })
    if (!chosen.ok || chosen.data === null) {
      setBusy(false)
      return chosen.ok ? setCancelled(true) : setError(chosen.error)
    }
    const r = await call('review:open', { folder: chosen.data.token })
    setBusy(false)
    if (!r.ok) return setError(r.error)
    resetTable(REVIEW_TABLE)
    setSelected(null)
    set(r.data)
  }
  const close = async (): Promise<void> => {
    const r = await call('review:close')
    if (!r.ok) return setError(r.error)
    resetTable(REVIEW_TABLE)
    setSelected(null)
    set(null)
  }
  const parsedNetwork = liquidNetworkSchema.safeParse(summary?.manifest?.network)
  const network = parsedNetwork.success ? parsedNetwork.data : undefined
  const failed = summary !== null && !summary.ok

  return (
    <section
      className={failed ? 'page page-review review-failed' : 'page page-review'}
      aria-labelledby="review-title"
      data-verdict={verdict(summary)}
    >
      {failed && (
        <div className="banner banner-failed" role="alert" data-testid="review-failed-banner">
          {t('failed.banner')}
        </div>
      )}
      <PageHeader
        id="review-title"
        title={t('title')}
        lead={summary ? undefined : t('intro')}
        actions={
          <>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void open()}>
              {busy ? t('opening') : summary ? t('openAnother') : t('open')}
            </button>
            {summary && (
              <button type="button" className="btn" onClick={() => void close()}>
                {t('close')}
              </button>
            )}
          </>
        }
      />
      {cancelled && <p role="status">{t('cancelled')}</p>}
      {error && <ErrorNotice error={error} />}
      {summary && (
        <>
          <Verdict summary={summary} />
          <ManifestFacts summary={summary} />
          {/* Keyed per review opened (each starts with no result); the keys of siblings must differ. */}
          <LedgerCheck key={`ledger-${opened}`} />
          <OlderCheck key={`older-${opened}`} />
          <section className="card" aria-labelledby="review-records">
            <h3 id="review-records">{failed ? t('unverifiedRecords') : t('records')}</h3>
            {summary.manifest?.['recordKind'] === 'deposit' ? (
              <DepositReviewList key={opened} />
            ) : (
              <RecordsTable
                key={opened}
                tableId={REVIEW_TABLE}
                source="review:list"
                live={false}
                readOnly
                selectedId={selected?.localId ?? null}
                onOpen={setSelected}
              />
            )}
          </section>
          {selected && (
            <ReadOnlyRecordPanel record={selected} network={network} onClose={() => setSelected(null)} />
          )}
        </>
      )}
    </section>
  )
}
