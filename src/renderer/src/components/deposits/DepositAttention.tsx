/**
 * Top-ups that need action, on "Hoje" next to the payments that do: a MED reversal (principal and date), an amount
 * the service reports differently, a purchase the service says it does not know, an unknown create outcome.
 * Shown only when there is one, so a treasury that never buys DePix sees nothing new.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositRecord } from '../../../../shared/deposit-record'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { useRoute } from '../../stores/route'
import { formatDateTime } from '../format'
import { DepositStatusBadge } from './DepositStatus'

const LIMIT = 50

export function DepositAttention(): React.JSX.Element | null {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const go = useRoute((s) => s.go)
  const [rows, setRows] = useState<DepositRecord[]>([])
  const [total, setTotal] = useState(0)
  const load = useCallback(async (): Promise<void> => {
    const r = await call('deposits:list', {
      attention: true,
      sort: { field: 'updatedAt', dir: 'desc' },
      limit: LIMIT,
    })
    if (!r.ok) return
    setRows(r.data.rows)
    setTotal(r.data.total)
  }, [])
  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('deposit:changed', () => void load())
  if (rows.length === 0) return null
  return (
    <section
      className="card today-block"
      aria-labelledby="today-h-deposits"
      data-testid="today-deposit-attention"
    >
      <h3 id="today-h-deposits">
        {t('today.heading')} <span className="today-count num">{total}</span>
      </h3>
      <ul className="today-lines">
        {rows.map((r) => (
          <li key={r.localId}>
            <button
              type="button"
              className="today-line"
              data-local-id={r.localId}
              onClick={() => go({ page: 'depositDetail', localId: r.localId })}
            >
              <span className="today-payee">
                {r.flags.includes('med_reversal')
                  ? t('today.med', { date: formatDateTime(r.reversedAt ?? r.updatedAt, lang) })
                  : t('today.other')}
              </span>
              <span className="today-amount num">{formatBRL(r.valueCents ?? r.amountCents, lang)}</span>
              <span className="today-when">
                <DepositStatusBadge record={r} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
