/** The treasury wallet's view for the Caixa page and the Hoje card: loaded from main, refreshed on wallet:changed. */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WalletViewDto } from '../../../../shared/channels-wallet'
import type { IpcError } from '../../../../shared/contract'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { formatDateTime } from '../format'

type Ready = Extract<WalletViewDto, { state: 'ready' }>

export function useWalletView(scanOnMount: boolean): {
  view: WalletViewDto | null
  error: IpcError | null
  scanning: boolean
  scan: () => Promise<void>
  setView: (v: WalletViewDto) => void
} {
  const [view, setView] = useState<WalletViewDto | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [scanning, setScanning] = useState(false)
  const load = useCallback(async () => {
    const r = await call('wallet:get', {})
    if (r.ok) setView(r.data)
    else setError(r.error)
  }, [])
  const scan = useCallback(async () => {
    setScanning(true)
    const r = await call('wallet:scan', {})
    setScanning(false)
    if (r.ok) setView(r.data)
    else setError(r.error)
  }, [])
  useEffect(() => {
    // The last-known view first (no network), then a fresh read where asked.
    const timer = setTimeout(() => void load().then(() => (scanOnMount ? scan() : undefined)))
    return () => clearTimeout(timer)
  }, [load, scan, scanOnMount])
  useEvent('wallet:changed', () => void load())
  return { view, error, scanning, scan, setView }
}

export function ScanAge({ view }: { view: Ready }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  const when = view.lastScanAt ? formatDateTime(view.lastScanAt, lang) : null
  if (view.lastFailure !== null) {
    const reason = t(`reasons.${view.lastFailure}`)
    return (
      <p className="alert alert-warn" role="status" data-testid="wallet-stale">
        {when ? t('stale', { reason, when }) : t('staleNever', { reason })}
      </p>
    )
  }
  return (
    <p className="muted" data-testid="wallet-age">
      {when ? t('lastScan', { when }) : t('neverScanned')}
    </p>
  )
}
