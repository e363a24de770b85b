/**
 * Configurações → the active profile's default refund address (issue #14): the treasury's own Liquid address,
 * prefilled in every new payment. Main checks it with the Liquid helper for the profile's network and refuses it
 * with the reason otherwise (shown here, the typed text kept); a change is an audited event in the ledger.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { useApp } from '../../stores/app'
import { ErrorNotice } from '../ErrorNotice'
import { useLiquidRefusal } from '../withdrawal-form/RefundAddressField'

export function DefaultRefundSection(): React.JSX.Element {
  const { t } = useTranslation('payees')
  const refusal = useLiquidRefusal()
  const info = useApp((s) => s.info)
  const [current, setCurrent] = useState<string | null>(null)
  const [profileName, setProfileName] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState<IpcError | null>(null)
  const [reason, setReason] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    let live = true
    void call('profiles:list').then((r) => {
      if (!live || !r.ok) return
      const active = r.data.profiles.find((p) => p.id === r.data.activeId)
      setCurrent(active?.defaultRefundAddress ?? null)
      setProfileName(active?.name ?? '')
    })
    return () => {
      live = false
    }
  }, [info?.profileName])

  const save = async (address: string | null): Promise<void> => {
    setSaving(true)
    setError(null)
    setReason(null)
    setNotice(null)
    const r = await call('profiles:setDefaultRefundAddress', { address })
    setSaving(false)
    if (!r.ok) {
      // The Liquid helper's reason in words where we have them (wrong network names both networks).
      if (r.error.code === 'refund_address_invalid' && r.error.reason) {
        setReason(refusal({ ok: false, reason: r.error.reason, message: r.error.message }, info?.network))
      }
      setError(r.error)
      return
    }
    setCurrent(r.data.defaultRefundAddress ?? null)
    setText('')
    setNotice(address === null ? t('settings.removed') : t('settings.saved'))
  }

  return (
    <section aria-labelledby="settings-default-refund" className="card" data-testid="default-refund-section">
      <h3 id="settings-default-refund">{t('settings.heading')}</h3>
      <p className="field-hint">{t('settings.intro', { profile: profileName })}</p>
      <p>
        {t('settings.current')}:{' '}
        {current ? (
          <code className="mono" data-testid="default-refund-current">
            {current}
          </code>
        ) : (
          <span className="field-hint">{t('settings.none')}</span>
        )}
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void save(text)
        }}
      >
        <div className="field">
          <label htmlFor="default-refund-address">{t('settings.label')}</label>
          <input
            id="default-refund-address"
            type="text"
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={reason || error ? true : undefined}
            aria-describedby={reason ? 'default-refund-error' : undefined}
          />
          {reason && (
            <p id="default-refund-error" className="field-error" data-testid="default-refund-refused">
              {reason}
            </p>
          )}
        </div>
        {error && !reason && <ErrorNotice error={error} />}
        {notice && (
          <p className="field-ok" role="status">
            {notice}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={saving || text.trim() === ''}>
            {saving ? t('settings.saving') : t('settings.save')}
          </button>
          {current && (
            <button type="button" className="btn" disabled={saving} onClick={() => void save(null)}>
              {t('settings.remove')}
            </button>
          )}
        </div>
      </form>
    </section>
  )
}
