/**
 * Sandbox tools for top-ups: the payer pays a deposit's QR, a MED reverses a paid one, and a deposit is made
 * "outside the app" (at the sandbox directly) for reconciliation to find. Main refuses these on other profiles.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { DepositRecord } from '../../../../shared/deposit-record'
import { formatBRL } from '../../../../shared/money'
import { depositStatusInWords } from '../../../../shared/deposit-words'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { formatDateTime } from '../format'
import { DepositStatusBadge, depositStatusOf } from './DepositStatus'
import { depositError } from './error-text'

export function SandboxDepositTools(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const [rows, setRows] = useState<DepositRecord[]>([])
  const [selected, setSelected] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [outsideCents, setOutsideCents] = useState('50000')
  const [outsidePay, setOutsidePay] = useState(true)
  const [made, setMade] = useState<string | null>(null)

  const load = useCallback(async (): Promise<void> => {
    const r = await call('deposits:list', { limit: 50, sort: { field: 'createdAt', dir: 'desc' } })
    if (!r.ok) return setError(depositError(r.error))
    setRows(r.data.rows)
    setSelected((s) =>
      s === '' || !r.data.rows.some((x) => x.localId === s) ? (r.data.rows[0]?.localId ?? '') : s,
    )
  }, [])
  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('deposit:changed', () => void load())
  const record = rows.find((r) => r.localId === selected) ?? null

  const act = async (channel: 'sandbox:payDeposit' | 'sandbox:fileMed'): Promise<void> => {
    if (!selected) return
    setBusy(true)
    setError(null)
    const r = await call(channel, { localId: selected })
    setBusy(false)
    if (r.ok) await load()
    else setError(depositError(r.error))
  }

  const outside = async (): Promise<void> => {
    const cents = Number(outsideCents)
    setBusy(true)
    setError(null)
    setMade(null)
    const r = await call('sandbox:outsideDeposit', { amountCents: cents, pay: outsidePay })
    setBusy(false)
    if (r.ok) setMade(r.data.qrId)
    else setError(depositError(r.error))
  }

  return (
    <section className="card" aria-labelledby="sandbox-deposits-heading" data-testid="sandbox-deposits">
      <h3 id="sandbox-deposits-heading">{t('sandbox.heading')}</h3>
      <div className="field">
        <label htmlFor="sandbox-deposit">{t('sandbox.pick')}</label>
        <select id="sandbox-deposit" value={selected} onChange={(e) => setSelected(e.target.value)}>
          {rows.length === 0 && <option value="">{t('sandbox.none')}</option>}
          {rows.map((r) => (
            <option key={r.localId} value={r.localId}>
              {`${formatDateTime(r.createdAt, lang)} · ${formatBRL(r.valueCents ?? r.amountCents, lang)} · ${depositStatusInWords(depositStatusOf(r), lang)}`}
            </option>
          ))}
        </select>
      </div>
      {record && (
        <p>
          <DepositStatusBadge record={record} />
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="btn"
          disabled={busy || !selected}
          onClick={() => void act('sandbox:payDeposit')}
          data-testid="sandbox-pay-deposit"
        >
          {t('sandbox.pay')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy || !selected}
          onClick={() => void act('sandbox:fileMed')}
          data-testid="sandbox-file-med"
        >
          {t('sandbox.med')}
        </button>
      </div>
      <h4>{t('sandbox.outsideHeading')}</h4>
      <div className="field">
        <label htmlFor="sandbox-outside-cents">{t('sandbox.outsideAmount')}</label>
        <input
          id="sandbox-outside-cents"
          type="text"
          inputMode="numeric"
          value={outsideCents}
          onChange={(e) => setOutsideCents(e.target.value.replace(/[^0-9]/g, ''))}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={outsidePay} onChange={(e) => setOutsidePay(e.target.checked)} />
        {t('sandbox.outsidePay')}
      </label>
      <div className="actions">
        <button
          type="button"
          className="btn"
          disabled={busy || outsideCents === ''}
          onClick={() => void outside()}
          data-testid="sandbox-outside-deposit"
        >
          {t('sandbox.outsideCreate')}
        </button>
      </div>
      {made && <p data-testid="sandbox-outside-made">{t('sandbox.outsideMade', { id: made })}</p>}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
