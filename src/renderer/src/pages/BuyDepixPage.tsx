/**
 * "Comprar DePix": amount in R$, the treasury's own Liquid address (prefilled from the profile), optional payer
 * CPF/CNPJ, EUID and hold. Review shows the exact body and any similar top-up of the last 24 h; creating uses the
 * review's one-use intent, so a double click or a stale review never makes a second POST /deposit. Whatever the
 * create returns (created, rejected, outcome unknown) opens its detail: nothing typed is lost before that. On a team
 * ledger a top-up above the limit or to an unregistered address is asked for approval instead (Aprovações).
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositQuote } from '../../../shared/channels-deposits'
import type { IpcError } from '../../../shared/contract'
import { depositMessages, nonLiquidNetwork, type DepositDraft } from '../../../shared/deposit-draft'
import { formatBRL } from '../../../shared/money'
import { ErrorNotice } from '../components/ErrorNotice'
import { UserInfoPanel } from '../components/deposits/UserInfoPanel'
import { UseWalletAddress, WalletAddressOwner } from '../components/wallet/WalletAddress'
import { depositError } from '../components/deposits/error-text'
import { useLiquidCheck } from '../components/withdrawal-form/useLiquidCheck'
import { centsFromTypedDigits } from '../components/withdrawal-form/form-model'
import { currentLanguage } from '../i18n'
import { call } from '../ipc'
import { useApp } from '../stores/app'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

interface Form {
  amountCents: number | null
  depixAddress: string
  endUserTaxNumber: string
  euid: string
  delayHours: string
}

const EMPTY: Form = { amountCents: null, depixAddress: '', endUserTaxNumber: '', euid: '', delayHours: '' }

function toDraft(f: Form): DepositDraft {
  const draft: DepositDraft = { amountCents: f.amountCents ?? Number.NaN, depixAddress: f.depixAddress }
  if (f.endUserTaxNumber.trim() !== '') draft.endUserTaxNumber = f.endUserTaxNumber
  if (f.euid.trim() !== '') draft.euid = f.euid
  if (f.delayHours.trim() !== '')
    draft.delayHours = /^\d+$/.test(f.delayHours.trim()) ? Number(f.delayHours) : -1
  return draft
}

/** Field codes keyed by the draft's own paths: main's router names them `draft.<field>`, the service `<field>`. */
function draftFields(fields: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(fields ?? {})) out[k.startsWith('draft.') ? k.slice(6) : k] = v
  return out
}

function FieldMessage({ id, code }: { id: string; code: string | undefined }): React.JSX.Element | null {
  if (!code) return null
  const lang = currentLanguage()
  const text = Object.hasOwn(depositMessages, code)
    ? depositMessages[code as keyof typeof depositMessages][lang]
    : depositMessages.invalid_value[lang]
  return (
    <p id={id} className="field-error" data-testid={id}>
      {text}
    </p>
  )
}

/** The destination as main's Liquid helper reads it for the profile's network, while typing. */
function AddressCheck({ address }: { address: string }): React.JSX.Element | null {
  const { t } = useTranslation(['deposits', 'withdrawal'])
  const network = useApp((s) => s.info?.network)
  const other = nonLiquidNetwork(address)
  const check = useLiquidCheck(other ? '' : address, network)
  if (other) {
    const code = other === 'arkade' ? 'address_arkade' : 'address_spark'
    return <FieldMessage id="depixAddress-check" code={code} />
  }
  if (check.state === 'checking') return <p className="field-hint">{t('withdrawal:refund.checking')}</p>
  if (check.state === 'failed') return <ErrorNotice error={check.error} />
  if (check.state !== 'done') return null
  if (check.check.ok) {
    return (
      <p className="field-ok" data-testid="depixAddress-ok">
        {t('buy.addressOk', { network: t(`withdrawal:networks.${check.check.network}`) })}
      </p>
    )
  }
  const c = check.check
  return (
    <p className="field-error" data-testid="depixAddress-check">
      {t(`withdrawal:refund.reasons.${c.reason}`, {
        defaultValue: c.message,
        actual: c.actualNetwork ? t(`withdrawal:networks.${c.actualNetwork}`) : '',
        expected: network ? t(`withdrawal:networks.${network}`) : '',
      })}
    </p>
  )
}

export function BuyDepixPage(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const go = useRoute((s) => s.go)
  const [form, setForm] = useState<Form>(EMPTY)
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<IpcError | null>(null)
  const [quote, setQuote] = useState<DepositQuote | null>(null)
  const [confirmed, setConfirmed] = useState(false)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void call('deposits:defaults').then((r) => {
      if (r.ok && r.data.depixAddress)
        setForm((f) => (f.depixAddress === '' ? { ...f, depixAddress: r.data.depixAddress ?? '' } : f))
    })
  }, [])

  const set = <K extends keyof Form>(k: K, v: Form[K]): void => {
    setForm((f) => ({ ...f, [k]: v }))
    setQuote(null)
    setFields((x) => {
      const { [k]: _gone, ...rest } = x
      return rest
    })
  }

  const review = async (): Promise<void> => {
    if (busy) return
    setBusy(true)
    setError(null)
    const r = await call('deposits:quote', { draft: toDraft(form) })
    setBusy(false)
    if (r.ok) {
      setQuote(r.data)
      setConfirmed(false)
      return
    }
    setFields(draftFields(r.error.fields))
    setError(depositError(r.error))
  }

  const create = async (): Promise<void> => {
    if (!quote || busy) return
    setBusy(true)
    setError(null)
    const r = await call('deposits:create', {
      draft: toDraft(form),
      intentId: quote.intent.id,
      confirmedDuplicates: confirmed ? quote.duplicates.map((d) => d.localId) : [],
    })
    setBusy(false)
    if (r.ok) {
      go({ page: 'depositDetail', localId: r.data.localId })
      return
    }
    // The intent is spent or void on most refusals: a new review is needed, the form keeps what was typed.
    setQuote(null)
    setFields(draftFields(r.error.fields))
    setError(depositError(r.error))
  }

  /** Above the team's limit or to an unregistered address: the reviewed top-up goes to Aprovações. */
  const requestApproval = async (): Promise<void> => {
    if (!quote || busy) return
    setBusy(true)
    setError(null)
    const r = await call('approvals:requestTopUp', {
      draft: toDraft(form),
      intentId: quote.intent.id,
      confirmedDuplicates: confirmed ? quote.duplicates.map((d) => d.localId) : [],
    })
    setBusy(false)
    if (r.ok) {
      go({ page: 'approvals' })
      return
    }
    setQuote(null)
    setFields(draftFields(r.error.fields))
    setError(depositError(r.error))
  }

  const needsConfirm = (quote?.duplicates.length ?? 0) > 0
  return (
    <div className="page">
      <PageHeader title={t('buy.title')} lead={t('buy.intro')} />
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void review()
        }}
      >
        <div className="field">
          <label htmlFor="deposit-amount">{t('buy.amount')}</label>
          <input
            id="deposit-amount"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            placeholder={formatBRL(0, lang)}
            value={form.amountCents === null ? '' : formatBRL(form.amountCents, lang)}
            onChange={(e) => set('amountCents', centsFromTypedDigits(e.target.value))}
            aria-invalid={fields['amountCents'] ? true : undefined}
          />
          <p className="field-hint">{t('buy.amountHint')}</p>
          <FieldMessage id="amountCents-error" code={fields['amountCents']} />
        </div>
        <div className="field">
          <label htmlFor="deposit-address">{t('buy.address')}</label>
          <input
            id="deposit-address"
            type="text"
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={form.depixAddress}
            onChange={(e) => set('depixAddress', e.target.value)}
            aria-invalid={fields['depixAddress'] ? true : undefined}
          />
          <p className="field-hint">{t('buy.addressHint')}</p>
          <UseWalletAddress onAddress={(a) => set('depixAddress', a)} />
          {form.depixAddress.trim() !== '' && <AddressCheck address={form.depixAddress} />}
          <WalletAddressOwner address={form.depixAddress} />
          <FieldMessage id="depixAddress-error" code={fields['depixAddress']} />
        </div>
        <div className="field">
          <label htmlFor="deposit-tax">{t('buy.taxNumber')}</label>
          <input
            id="deposit-tax"
            type="text"
            autoComplete="off"
            value={form.endUserTaxNumber}
            aria-describedby="deposit-tax-hint"
            onChange={(e) => set('endUserTaxNumber', e.target.value)}
          />
          <p id="deposit-tax-hint" className="field-hint">
            {t('buy.taxNumberHint')}
          </p>
          <FieldMessage id="endUserTaxNumber-error" code={fields['endUserTaxNumber']} />
        </div>
        <div className="field">
          <label htmlFor="deposit-euid">{t('buy.euid')}</label>
          <input
            id="deposit-euid"
            type="text"
            autoComplete="off"
            value={form.euid}
            onChange={(e) => set('euid', e.target.value)}
          />
          <FieldMessage id="euid-error" code={fields['euid']} />
        </div>
        {form.euid.trim() !== '' && !fields['euid'] && (
          <UserInfoPanel key={form.euid.trim()} fixedEuid={form.euid.trim()} />
        )}
        <div className="field">
          <label htmlFor="deposit-delay">{t('buy.delay')}</label>
          <input
            id="deposit-delay"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={form.delayHours}
            onChange={(e) => set('delayHours', e.target.value)}
          />
          <p className="field-hint">{t('buy.delayHint')}</p>
          <FieldMessage id="delayHours-error" code={fields['delayHours']} />
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="deposit-review">
            {t('buy.review')}
          </button>
        </div>
      </form>
      {error && <ErrorNotice error={error} />}
      {quote && (
        <section className="card" aria-labelledby="deposit-review-heading" data-testid="deposit-quote">
          <h3 id="deposit-review-heading">{t('buy.reviewHeading')}</h3>
          <dl>
            <dt>{t('fields.amountCents')}</dt>
            <dd className="num" data-testid="quote-amount">
              {formatBRL(Number(quote.request['amountInCents']), lang)}
            </dd>
            <dt>{t('fields.depixAddress')}</dt>
            <dd className="mono">{String(quote.request['depixAddress'])}</dd>
          </dl>
          {!quote.address.ok && (
            <p className="alert alert-error" role="alert" data-testid="quote-address-refused">
              {t(`withdrawal:refund.reasons.${quote.address.reason}`, {
                defaultValue: quote.address.message,
              })}
            </p>
          )}
          {needsConfirm && (
            <div className="alert alert-warn" role="alert">
              <p>{t('buy.duplicates', { count: quote.duplicates.length })}</p>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={confirmed}
                  onChange={(e) => setConfirmed(e.target.checked)}
                  data-testid="deposit-confirm-duplicates"
                />
                {t('buy.confirmDuplicates')}
              </label>
            </div>
          )}
          {quote.needsApproval && (
            <p className="alert alert-warn" role="note" data-testid="deposit-needs-approval">
              {t('buy.needsApproval')}
            </p>
          )}
          <details data-technical="">
            <summary>{t('detail.technical')}</summary>
            <p>{t('buy.requestBody')}</p>
            <pre className="raw-json">{JSON.stringify(quote.request, null, 2)}</pre>
          </details>
          <div className="actions">
            <button type="button" className="btn" disabled={busy} onClick={() => setQuote(null)}>
              {t('buy.back')}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || !quote.address.ok || (needsConfirm && !confirmed)}
              onClick={() => void (quote.needsApproval ? requestApproval() : create())}
              data-testid="deposit-create"
            >
              {quote.needsApproval
                ? t(busy ? 'buy.requesting' : 'buy.requestApproval')
                : t(busy ? 'buy.creating' : 'buy.confirm')}
            </button>
          </div>
        </section>
      )}
    </div>
  )
}
