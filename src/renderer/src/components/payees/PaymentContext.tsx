/**
 * The detail page's "Favorecido e referências": the payee from the book the payment was made to (as it was then),
 * the name check against what the service reported, the references, and "Repetir pagamento".
 */
import { useTranslation } from 'react-i18next'
import { checkPayeeName, type NameCheckPart } from '../../../../shared/name-check'
import { maskTaxId } from '../../../../shared/tax-id'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { call } from '../../ipc'
import { useRoute } from '../../stores/route'
import { useWithdrawalDraft } from '../withdrawal-form/draft-store'
import { formForRepeat } from './prefill'
import { ReferencesText } from './ReferencesText'
import { useRepeat } from './repeat-store'

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)

function Part({ part }: { part: NameCheckPart }): React.JSX.Element {
  const { t } = useTranslation('payees')
  return (
    <span
      className={part === 'mismatch' ? 'field-error' : part === 'match' ? 'field-ok' : 'field-hint'}
      data-part={part}
    >
      {t(`check.parts.${part}`)}
    </span>
  )
}

/** Expected against reported, part by part, with the verdict (shown loud when it differs). */
export function PayeeCheck({ record }: { record: WithdrawalRecord }): React.JSX.Element | null {
  const { t } = useTranslation('payees')
  const expected = record.expectedPayee
  if (!expected) return null
  const remote = record.lastRemote ?? {}
  const check = checkPayeeName(expected, remote)
  const reportedName = str(remote['receiverName']) ?? str(record.receiverName)
  const reportedTax = str(remote['receiverTaxNumber'])
  const body =
    check.verdict === 'mismatch'
      ? t('check.mismatchBody')
      : check.verdict === 'match'
        ? t('check.matchBody')
        : t('check.pendingBody')
  return (
    <div
      className={
        check.verdict === 'mismatch'
          ? 'alert alert-error alert-loud'
          : check.verdict === 'match'
            ? 'alert alert-ok'
            : 'field-hint'
      }
      role={check.verdict === 'mismatch' ? 'alert' : undefined}
      data-testid="payee-check"
      data-verdict={check.verdict}
    >
      <p className="alert-title">{t(`check.verdicts.${check.verdict}`)}</p>
      <p>{body}</p>
      {check.verdict !== 'unknown' && (
        <table className="totals-table">
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">{t('check.expected')}</th>
              <th scope="col">{t('check.reported')}</th>
              <th scope="col">{t('check.result')}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t('check.name')}</th>
              <td>{expected.name}</td>
              <td data-testid="reported-name">{reportedName ?? '—'}</td>
              <td>
                <Part part={check.name} />
              </td>
            </tr>
            <tr>
              <th scope="row">{t('check.taxNumber')}</th>
              <td className="mono">{maskTaxId(expected.taxNumber)}</td>
              <td className="mono">{reportedTax ?? '—'}</td>
              <td>
                <Part part={check.taxNumber} />
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  )
}

export function PaymentContext({ record }: { record: WithdrawalRecord }): React.JSX.Element {
  const { t } = useTranslation('payees')
  const go = useRoute((s) => s.go)
  const r = record
  const repeat = async (): Promise<void> => {
    // The link to the book only if the entry is still there; otherwise the key and document are copied alone.
    const stillThere = r.expectedPayee ? (await call('payees:get', { id: r.expectedPayee.id })).ok : false
    useWithdrawalDraft.getState().keep(formForRepeat(r, stillThere))
    useRepeat.getState().set({
      localId: r.localId,
      createdAt: r.createdAt,
      amountKind: r.amountKind,
      cents: r.amountCents,
    })
    go({ page: 'newWithdrawal' })
  }
  return (
    <section className="card" aria-labelledby="detail-payee-refs" data-testid="detail-payee-refs">
      <h3 id="detail-payee-refs">{t('detail.section')}</h3>
      <dl>
        <dt>{t('detail.payee')}</dt>
        <dd data-testid="detail-expected-payee">
          {r.expectedPayee ? (
            <>
              {r.expectedPayee.name} <span className="mono">({maskTaxId(r.expectedPayee.taxNumber)})</span>
            </>
          ) : (
            <span className="field-hint">{t('detail.noPayee')}</span>
          )}
        </dd>
        <dt>{t('detail.references')}</dt>
        <dd data-testid="detail-references">
          {r.references ? (
            <ReferencesText references={r.references} />
          ) : (
            <span className="field-hint">{t('detail.noReferences')}</span>
          )}
        </dd>
      </dl>
      <PayeeCheck record={r} />
      <div className="actions actions-hint">
        <button
          type="button"
          className="btn"
          data-testid="repeat-payment"
          aria-describedby="repeat-hint"
          onClick={() => void repeat()}
        >
          {t('repeat.button')}
        </button>
        {/* Beside the button, as "Consultar agora"'s hint (issue #26 density). */}
        <span id="repeat-hint" className="field-hint">
          {t('repeat.hint')}
        </span>
      </div>
    </section>
  )
}

/** One line on the funding page: who the Pix will go to, from the book. */
export function ExpectedPayeeLine({ record }: { record: WithdrawalRecord }): React.JSX.Element | null {
  const { t } = useTranslation('payees')
  const p = record.expectedPayee
  if (!p) return null
  return (
    <p className="field-hint" data-testid="funding-expected-payee">
      {t('funding.payee', { name: p.name, taxNumber: maskTaxId(p.taxNumber) })}
    </p>
  )
}
