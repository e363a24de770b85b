/**
 * "Compras de DePix": the active profile's top-ups, newest first, with totals by meaning (only "DePix recebido"
 * is money that reached the treasury; a MED reversal is its own group), the reconciliation with the service and
 * the payer's daily limit. Imported records say "feita fora do aplicativo" on their row.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositPage } from '../../../shared/channels-deposits'
import type { IpcError } from '../../../shared/contract'
import { DEPOSIT_ATTENTION_FLAGS } from '../../../shared/deposit-record'
import { MEANINGS, meaningTotals } from '../../../shared/money-totals'
import { ErrorNotice } from '../components/ErrorNotice'
import { DepositExport } from '../components/deposits/DepositExport'
import { DepositStatusBadge } from '../components/deposits/DepositStatus'
import { ReconciliationPanel } from '../components/deposits/Reconciliation'
import { UserInfoPanel } from '../components/deposits/UserInfoPanel'
import { depositError } from '../components/deposits/error-text'
import { Brl, DateTime } from '../components/format'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'

const LIST_LIMIT = 200
const GROUP_KEY = {
  paid: 'paid',
  open: 'openGroup',
  returned: 'returned',
  ended: 'ended',
  other: 'other',
} as const

export function DepositsPage(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const go = useRoute((s) => s.go)
  const [page, setPage] = useState<DepositPage | null>(null)
  const [error, setError] = useState<IpcError | null>(null)

  const load = useCallback(async (): Promise<void> => {
    const r = await call('deposits:list', { limit: LIST_LIMIT, sort: { field: 'createdAt', dir: 'desc' } })
    if (r.ok) {
      setPage(r.data)
      setError(null)
    } else setError(depositError(r.error))
  }, [])
  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('deposit:changed', () => void load())

  const meaning = page ? meaningTotals(page.totals, 'deposit') : null
  return (
    <div className="page deposits">
      <h2>{t('list.title')}</h2>
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={() => go({ page: 'buyDepix' })}>
          {t('buy.title')}
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
      {meaning && (
        <section className="card" aria-labelledby="deposit-totals-heading">
          <h3 id="deposit-totals-heading">{t('list.totals')}</h3>
          <dl data-testid="deposit-totals">
            {MEANINGS.filter((k) => k !== 'other' || meaning.other.count > 0).map((k) => (
              <div key={k} data-meaning={k}>
                <dt>{t(`list.${GROUP_KEY[k]}`)}</dt>
                <dd>
                  <Brl cents={meaning[k].depositCents} /> · {t('list.count', { count: meaning[k].count })}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {page && page.rows.length === 0 && <p>{t('list.empty')}</p>}
      {page && page.rows.length > 0 && (
        <table className="data" data-testid="deposits-table">
          <thead>
            <tr>
              <th scope="col">{t('list.createdAt')}</th>
              <th scope="col">{t('list.status')}</th>
              <th scope="col" className="num">
                {t('list.amount')}
              </th>
              <th scope="col">{t('list.origin')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('list.open')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.rows.map((r) => (
              <tr key={r.localId} data-local-id={r.localId} data-testid="deposit-row">
                <td>
                  <DateTime iso={r.createdAt} />
                </td>
                <td>
                  <DepositStatusBadge record={r} />
                  {r.flags.some((f) => (DEPOSIT_ATTENTION_FLAGS as readonly string[]).includes(f)) && (
                    <strong className="field-error" data-testid="deposit-needs-action">
                      {' '}
                      {t('list.needsAction')}
                    </strong>
                  )}
                </td>
                <td className="num">
                  <Brl cents={r.valueCents ?? r.amountCents} />
                </td>
                <td data-origin={r.origin}>{r.origin === 'imported' ? t('list.outside') : t('list.ours')}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => go({ page: 'depositDetail', localId: r.localId })}
                  >
                    {t('list.open')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ReconciliationPanel onImported={() => void load()} />
      <DepositExport />
      <UserInfoPanel />
    </div>
  )
}
