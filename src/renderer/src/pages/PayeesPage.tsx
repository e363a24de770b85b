/**
 * Favorecidos: the payee book. Search by name, CPF/CNPJ or key; add, edit, remove (audited in the ledger); pay a
 * payee (the payment form opens with their details); import and export as CSV.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../shared/contract'
import type { PayeeImportResultView } from '../../../shared/channels-payees'
import type { Payee } from '../../../shared/payee'
import { maskTaxId } from '../../../shared/tax-id'
import { ErrorNotice } from '../components/ErrorNotice'
import { fieldLabel } from '../components/payees/field-label'
import { ImportResult } from '../components/payees/ImportResult'
import { TechnicalDetails } from '../components/layout/TechnicalDetails'
import { PayeeEditor } from '../components/payees/PayeeEditor'
import { withPayeesMessage } from '../components/payees/payee-errors'
import { fromPayee } from '../components/payees/payee-model'
import { formForPayee } from '../components/payees/prefill'
import { useRepeat } from '../components/payees/repeat-store'
import { useWithdrawalDraft } from '../components/withdrawal-form/draft-store'
import { Toolbar } from '../components/ui/Toolbar'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

const PAGE = 50

type Editing = { kind: 'new' } | { kind: 'edit'; payee: Payee } | null

export function PayeesPage(): React.JSX.Element {
  const { t } = useTranslation('payees')
  const go = useRoute((s) => s.go)
  const [text, setText] = useState('')
  const [rows, setRows] = useState<Payee[]>([])
  const [total, setTotal] = useState(0)
  const [error, setError] = useState<IpcError | null>(null)
  const [editing, setEditing] = useState<Editing>(null)
  const [removing, setRemoving] = useState<Payee | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [imported, setImported] = useState<PayeeImportResultView | null>(null)
  const [busy, setBusy] = useState<'import' | 'export' | null>(null)

  const load = useCallback(
    async (limit = PAGE): Promise<void> => {
      const r = await call('payees:list', { text, limit })
      if (r.ok) {
        setRows(r.data.rows)
        setTotal(r.data.total)
        setError(null)
      } else setError(r.error)
    },
    [text],
  )

  useEffect(() => {
    // A short pause after typing: one query per word, not per key.
    const timer = setTimeout(() => void load(), 150)
    return () => clearTimeout(timer)
  }, [load])

  // On a team ledger another desk may change the book: re-read what is shown (once for a burst, e.g. an import).
  const shown = useRef(PAGE)
  useEffect(() => {
    shown.current = Math.max(PAGE, rows.length)
  }, [rows.length])
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEvent('payee:changed', () => {
    if (pending.current !== null) return
    pending.current = setTimeout(() => {
      pending.current = null
      void load(Math.min(shown.current, 200))
    }, 250)
  })
  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current)
    },
    [],
  )

  const pay = (p: Payee): void => {
    useRepeat.getState().set(null)
    useWithdrawalDraft.getState().keep(formForPayee(p))
    go({ page: 'newWithdrawal' })
  }

  const remove = async (p: Payee): Promise<void> => {
    const r = await call('payees:remove', { id: p.id, expectedUpdatedAt: p.updatedAt })
    setRemoving(null)
    if (!r.ok) return setError(withPayeesMessage(r.error))
    setNotice(t('editor.removed', { name: p.name }))
    void load()
  }

  const importCsv = async (): Promise<void> => {
    setBusy('import')
    setError(null)
    setNotice(null)
    const r = await call('payees:import')
    setBusy(null)
    if (!r.ok) return setError(withPayeesMessage(r.error))
    if (r.data === null) return
    setImported(r.data)
    void load()
  }

  const exportCsv = async (): Promise<void> => {
    setBusy('export')
    setError(null)
    setNotice(null)
    const chosen = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!chosen.ok || chosen.data === null) {
      setBusy(null)
      if (!chosen.ok) setError(chosen.error)
      return
    }
    const r = await call('payees:export', { folder: chosen.data.token })
    setBusy(null)
    if (!r.ok) return setError(withPayeesMessage(r.error))
    setNotice(t('exported', { file: r.data.fileName, folder: r.data.folder, count: r.data.count }))
  }

  return (
    <div className="page">
      <PageHeader
        title={t('title')}
        lead={t('intro')}
        actions={
          <>
            <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: 'new' })}>
              {t('actions.add')}
            </button>
            <button type="button" className="btn" disabled={busy !== null} onClick={() => void importCsv()}>
              {busy === 'import' ? t('actions.importing') : t('actions.import')}
            </button>
            <button type="button" className="btn" disabled={busy !== null} onClick={() => void exportCsv()}>
              {busy === 'export' ? t('actions.exporting') : t('actions.export')}
            </button>
          </>
        }
      />
      <p className="field-hint">{t('import.hint')}</p>
      {notice && (
        <div className="alert alert-ok" role="status" data-testid="payees-notice">
          <p>{notice}</p>
        </div>
      )}
      {error && <ErrorNotice error={error} />}
      {error?.code === 'import_missing_columns' && error.fields && (
        <p className="field-error" data-testid="import-missing-columns">
          {t('import.missingColumns', {
            columns: Object.keys(error.fields)
              .map((f) => fieldLabel(t, f))
              .join(', '),
          })}
        </p>
      )}
      {error?.code.startsWith('import_') && error.reason && (
        <TechnicalDetails>
          <p className="mono">{error.reason}</p>
        </TechnicalDetails>
      )}
      {imported && <ImportResult result={imported} onClose={() => setImported(null)} />}
      {editing && (
        <PayeeEditor
          key={editing.kind === 'edit' ? editing.payee.id : 'new'}
          {...(editing.kind === 'edit' ? { payee: editing.payee, initial: fromPayee(editing.payee) } : {})}
          onCancel={() => {
            setEditing(null)
            // On a team book another desk may have changed the entry meanwhile (payee_changed says "close and open
            // it again"): the list must hold the current version, or opening it again brings back the stale one.
            void load()
          }}
          onSaved={(p) => {
            setEditing(null)
            setNotice(t('editor.saved', { name: p.name }))
            void load()
          }}
        />
      )}

      <div className="field">
        <label htmlFor="payee-search">{t('search.label')}</label>
        <input
          id="payee-search"
          type="search"
          autoComplete="off"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <p className="field-hint" aria-live="polite" data-testid="payee-count">
          {t('search.results', { count: total })}
        </p>
      </div>

      {rows.length === 0 ? (
        <p>{text.trim() === '' ? t('empty') : t('noMatch')}</p>
      ) : (
        <table className="data data-grid payees-table" data-testid="payees-table">
          <thead>
            <tr>
              <th scope="col">{t('columns.name')}</th>
              <th scope="col">{t('columns.taxNumber')}</th>
              <th scope="col">{t('columns.keys')}</th>
              <th scope="col">{t('columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id} data-payee-id={p.id}>
                <td>
                  {p.name}
                  {p.notes && <div className="field-hint">{p.notes}</div>}
                </td>
                <td className="mono">{maskTaxId(p.taxNumber)}</td>
                <td>
                  {p.pixKeys.map((k) => (
                    <div key={k.key}>
                      <span className="field-hint">{t(`keyTypes.${k.type}`)}:</span>{' '}
                      <code className="mono">{k.key}</code>
                    </div>
                  ))}
                </td>
                <td>
                  {/* Removing is quiet and apart from "Pagar"; only its confirmation is red. */}
                  <Toolbar
                    end={
                      <button type="button" className="btn-link" onClick={() => setRemoving(p)}>
                        {t('actions.remove')}
                      </button>
                    }
                  >
                    <button type="button" className="btn btn-small btn-primary" onClick={() => pay(p)}>
                      {t('actions.pay')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => setEditing({ kind: 'edit', payee: p })}
                    >
                      {t('actions.edit')}
                    </button>
                  </Toolbar>
                  {removing?.id === p.id && (
                    <div className="alert alert-warn" role="alertdialog" aria-label={t('actions.remove')}>
                      <p>{t('actions.confirmRemove', { name: p.name })}</p>
                      <button type="button" className="btn btn-small" onClick={() => setRemoving(null)}>
                        {t('actions.cancel')}
                      </button>{' '}
                      <button
                        type="button"
                        className="btn btn-small btn-danger"
                        onClick={() => void remove(p)}
                      >
                        {t('actions.confirm')}
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length < total && (
        <button type="button" className="btn" onClick={() => void load(Math.min(rows.length + PAGE, 200))}>
          {t('more')}
        </button>
      )}
    </div>
  )
}
