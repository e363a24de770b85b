/**
 * Caixa (issue #27): the treasury wallet as main's watch-only wallet sees it — DePix in R$ and L-BTC for fees,
 * confirmed and pending, the age of the last network read (and why the latest failed: the balance is then the
 * last-known one), the movements; and, on a live profile without a wallet, the descriptor form. Reads
 * `wallet:get` at once (no network), then `wallet:scan`; refreshed on `wallet:changed`.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WalletViewDto } from '../../../shared/channels-wallet'
import { formatAssetUnits, formatBRL } from '../../../shared/money'
import { ErrorNotice } from '../components/ErrorNotice'
import { formatDateTime } from '../components/format'
import { currentLanguage } from '../i18n'
import { call } from '../ipc'
import { CanFund } from '../components/wallet/CanFund'
import { MovementMeaning } from '../components/wallet/MovementMeaning'
import { ScanAge, useWalletView } from '../components/wallet/wallet-view'
import { PageHeader } from '../components/ui/PageHeader'

type Ready = Extract<WalletViewDto, { state: 'ready' }>

function Balances({ view }: { view: Ready }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  return (
    <div className="caixa-balances">
      <section className="card" aria-labelledby="caixa-depix" data-testid="caixa-depix">
        <h3 id="caixa-depix">{t('depix')}</h3>
        <p className="num big" data-testid="caixa-depix-confirmed">
          {formatBRL(view.depix.confirmedCents, lang)}
        </p>
        <p>
          {t('pending')}:{' '}
          <span className="num" data-testid="caixa-depix-pending">
            {formatBRL(view.depix.pendingCents, lang)}
          </span>
        </p>
      </section>
      <section className="card" aria-labelledby="caixa-lbtc" data-testid="caixa-lbtc">
        <h3 id="caixa-lbtc">{t('lbtc')}</h3>
        <p className="num">{formatAssetUnits(view.lbtc.confirmedUnits, 'L-BTC', lang)}</p>
        <p>
          {t('pending')}:{' '}
          <span className="num">{formatAssetUnits(view.lbtc.pendingUnits, 'L-BTC', lang)}</span>
        </p>
      </section>
    </div>
  )
}

function Movements({ view, onView }: { view: Ready; onView: (v: WalletViewDto) => void }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  if (view.movements.length === 0) return <p>{t('noMovements')}</p>
  return (
    <table className="data-grid" data-testid="caixa-movements">
      <thead>
        <tr>
          <th scope="col">{t('colWhen')}</th>
          <th scope="col">{t('colMeaning')}</th>
          <th scope="col">{t('colDepix')}</th>
          <th scope="col">{t('colLbtc')}</th>
          <th scope="col">{t('colTx')}</th>
        </tr>
      </thead>
      <tbody>
        {view.movements.map((m) => (
          <tr key={m.txid} data-testid="caixa-movement">
            <td>{m.at ? formatDateTime(m.at, lang) : t('unconfirmed')}</td>
            <td>
              <MovementMeaning movement={m} onView={onView} />
            </td>
            <td className="num">{formatBRL(m.depixCents, lang)}</td>
            <td className="num">{formatAssetUnits(m.lbtcUnits, 'L-BTC', lang)}</td>
            <td>
              <code title={m.txid}>{`${m.txid.slice(0, 10)}…${m.txid.slice(-6)}`}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function DescriptorForm({ onSaved }: { onSaved: (v: WalletViewDto) => void }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const save = async (): Promise<void> => {
    const r = await call('wallet:setDescriptor', { descriptor: text })
    if (r.ok) {
      setText('')
      setProblem(null)
      onSaved(r.data)
      return
    }
    // The text stays in the field: nothing entered is lost on a refusal.
    setProblem(r.error.userMessage?.[lang] ?? r.error.message)
  }
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <p>{t('notConfigured')}</p>
      <label htmlFor="wallet-descriptor">{t('descriptorLabel')}</label>
      <textarea
        id="wallet-descriptor"
        data-testid="wallet-descriptor"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        value={text}
        aria-invalid={problem !== null}
        aria-describedby="wallet-descriptor-hint wallet-descriptor-problem"
        onChange={(e) => setText(e.target.value)}
      />
      <p id="wallet-descriptor-hint" className="muted">
        {t('descriptorHint')}
      </p>
      {problem !== null && (
        <p
          id="wallet-descriptor-problem"
          className="field-error"
          role="alert"
          data-testid="wallet-descriptor-error"
        >
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={text.trim() === ''}>
        {t('save')}
      </button>
    </form>
  )
}

export function CaixaPage(): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const { view, error, scanning, scan, setView } = useWalletView(true)
  return (
    <section className="page page-caixa" aria-labelledby="caixa-title">
      <PageHeader
        id="caixa-title"
        title={t('title')}
        lead={t('intro')}
        actions={
          view?.state === 'ready' && (
            <button
              type="button"
              className="btn"
              onClick={() => void scan()}
              disabled={scanning}
              data-testid="caixa-refresh"
            >
              {scanning ? t('refreshing') : t('refresh')}
            </button>
          )
        }
      />
      {error && <ErrorNotice error={error} />}
      {view?.state === 'not_configured' && <DescriptorForm onSaved={setView} />}
      {view?.state === 'ready' && (
        <>
          <ScanAge view={view} />
          {view.multisig && <p className="muted">{t('multisig')}</p>}
          <Balances view={view} />
          <CanFund view={view} />
          <h3>{t('movements')}</h3>
          <Movements view={view} onView={setView} />
        </>
      )}
    </section>
  )
}
