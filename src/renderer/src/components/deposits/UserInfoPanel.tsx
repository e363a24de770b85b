/** GET /user-info for one payer EUID: the daily ceiling, what was used today and when it resets, in R$. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { UserInfoView } from '../../../../shared/channels-deposits'
import type { IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { Brl, DateTime } from '../format'
import { depositError } from './error-text'

/** With `fixedEuid` (the buy form's payer EUID) the panel asks about that one and has no field of its own. */
export function UserInfoPanel({ fixedEuid }: { fixedEuid?: string }): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const [typed, setEuid] = useState('')
  const euid = fixedEuid ?? typed
  const [info, setInfo] = useState<UserInfoView | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [busy, setBusy] = useState(false)
  const check = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('deposits:userInfo', { euid: euid.trim() })
    setBusy(false)
    if (r.ok) setInfo(r.data)
    else setError(depositError(r.error))
  }
  const none = <span>{t('userInfo.notReported')}</span>
  return (
    <section className="card" aria-labelledby="user-info-heading">
      <h3 id="user-info-heading">{t('userInfo.heading')}</h3>
      {fixedEuid === undefined && (
        <div className="field">
          <label htmlFor="user-info-euid">EUID</label>
          <input
            id="user-info-euid"
            type="text"
            value={typed}
            maxLength={200}
            onChange={(e) => setEuid(e.target.value)}
          />
        </div>
      )}
      <button
        type="button"
        className="btn"
        disabled={busy || euid.trim() === ''}
        onClick={() => void check()}
      >
        {t('userInfo.check')}
      </button>
      {info && (
        <dl data-testid="user-info">
          <dt>{t('userInfo.max')}</dt>
          <dd>{info.maxDailyCents === null ? none : <Brl cents={info.maxDailyCents} />}</dd>
          <dt>{t('userInfo.used')}</dt>
          <dd>{info.usedTodayCents === null ? none : <Brl cents={info.usedTodayCents} />}</dd>
          <dt>{t('userInfo.resets')}</dt>
          <dd>{info.resetsAt === null ? none : <DateTime iso={info.resetsAt} />}</dd>
        </dl>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
