/**
 * What the treasury can fund (issue #27): the confirmed DePix against the payments waiting for their deposit
 * (`withdrawals:list`, status "unsent", the deposit amounts the service asked for), and the L-BTC against the fees
 * of the next fundings. Amounts in R$; refreshed when a payment or the wallet changes.
 */
import { useCallback, useEffect, useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import {
  LBTC_FEE_FUNDINGS,
  LBTC_FEE_UNITS_PER_FUNDING,
  type WalletViewDto,
} from '../../../../shared/channels-wallet'
import { formatAssetUnits } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { Brl } from '../format'

type Ready = Extract<WalletViewDto, { state: 'ready' }>

export function CanFund({ view }: { view: Ready }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  const [awaiting, setAwaiting] = useState<{ count: number; cents: number } | null>(null)
  const load = useCallback(async () => {
    const r = await call('withdrawals:list', { statuses: ['unsent'], limit: 1 })
    if (!r.ok) return
    setAwaiting({
      count: r.data.totals.reduce((n, x) => n + x.count, 0),
      cents: r.data.totals.reduce((n, x) => n + x.depositCents, 0),
    })
  }, [])
  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('withdrawal:changed', () => void load())
  const feeNeed = LBTC_FEE_UNITS_PER_FUNDING * BigInt(LBTC_FEE_FUNDINGS)
  const lbtcLow = BigInt(view.lbtc.confirmedUnits) < feeNeed
  const missing = awaiting ? awaiting.cents - view.depix.confirmedCents : 0
  return (
    <div data-testid="wallet-can-fund">
      {awaiting && awaiting.count > 0 && (
        <p className={missing > 0 ? 'alert alert-warn' : undefined} data-testid="wallet-awaiting">
          {/* The amounts as money cells: "R$" never ends a line with its digits on the next (issue #26). */}
          <Trans
            t={t}
            i18nKey={missing > 0 ? 'fundShort' : 'fundOk'}
            values={{ count: awaiting.count }}
            components={{ total: <Brl cents={awaiting.cents} />, missing: <Brl cents={missing} /> }}
          />
        </p>
      )}
      {lbtcLow && (
        <p className="alert alert-warn" role="status" data-testid="wallet-lbtc-low">
          {t('lbtcLow', {
            fundings: LBTC_FEE_FUNDINGS,
            need: formatAssetUnits(feeNeed.toString(), 'L-BTC', lang),
          })}
        </p>
      )}
    </div>
  )
}
