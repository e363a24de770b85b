/** The client-side rate limiter, live: per endpoint, the limit, what can be sent now and when the next slot frees. */
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '../../ipc'
import { currentLanguage } from '../../i18n'
import { useApp } from '../../stores/app'
import { allowanceRows } from './logic'

/** Main pushes allowance:changed when a call spends a slot; refills happen silently, so re-read now and then. */
const REFRESH_MS = 5_000

export function AllowancesSection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const { allowances, setAllowances } = useApp()

  useEffect(() => {
    const read = (): void => void call('allowance:get').then((r) => r.ok && setAllowances(r.data))
    read()
    const timer = setInterval(read, REFRESH_MS)
    return () => clearInterval(timer)
  }, [setAllowances])

  const rows = allowanceRows(allowances)
  const seconds = new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 1 })
  const integer = new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 0 })

  return (
    <section aria-labelledby="settings-allowances" className="card">
      <h3 id="settings-allowances">{t('allowances.title')}</h3>
      <p className="field-hint">{t('allowances.intro')}</p>
      {rows.length === 0 ? (
        <p>{t('allowances.none')}</p>
      ) : (
        <table className="data" data-testid="allowances">
          <caption className="visually-hidden">{t('allowances.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('allowances.endpoint')}</th>
              <th scope="col" className="num">
                {t('allowances.limit')}
              </th>
              <th scope="col" className="num">
                {t('allowances.available')}
              </th>
              <th scope="col" className="num">
                {t('allowances.next')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.endpoint} data-endpoint={r.endpoint}>
                <th scope="row" title={r.endpoint}>
                  {t(`allowances.endpointNames.${r.endpoint}`, { defaultValue: r.endpoint })}
                </th>
                <td className="num">{integer.format(r.limitPerMinute)}</td>
                <td className="num">{integer.format(r.available)}</td>
                <td className="num">
                  {r.nextInSeconds === null ? t('allowances.full') : `${seconds.format(r.nextInSeconds)} s`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
