/**
 * Addresses from the treasury wallet (issue #27) beside an address field: a button that fills in one the wallet
 * proposes (per the profile's policy: fresh each time, or one per profile), and, for whatever the field holds,
 * whether it is one of the wallet's receive addresses. Nothing shows for a profile without a wallet.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '../../ipc'

type Owner = 'treasury' | 'external' | 'unknown'

/** Whether `address` is the treasury wallet's, asked of main once typing pauses; null while unknown. */
function useAddressOwner(address: string): Owner | null {
  // Kept with the address it answers, so an answer for an older text is never shown for the new one.
  const [answer, setAnswer] = useState<{ address: string; owner: Owner } | null>(null)
  const a = address.trim()
  useEffect(() => {
    if (a === '' || a.length > 200) return
    let live = true
    const timer = setTimeout(() => {
      void call('wallet:checkAddress', { address: a }).then((r) => {
        if (live && r.ok) setAnswer({ address: a, owner: r.data.owner })
      })
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [a])
  return answer !== null && answer.address === a ? answer.owner : null
}

export function WalletAddressOwner({ address }: { address: string }): React.JSX.Element | null {
  const { t } = useTranslation('wallet')
  const owner = useAddressOwner(address)
  if (owner === null || owner === 'unknown') return null
  return (
    <p className="field-hint" data-testid="wallet-address-owner" data-owner={owner}>
      {t(owner === 'treasury' ? 'address.treasury' : 'address.external')}
    </p>
  )
}

export function UseWalletAddress({ onAddress }: { onAddress: (address: string) => void }): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const [none, setNone] = useState(false)
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        data-testid="use-wallet-address"
        onClick={() =>
          void call('wallet:proposeAddress', {}).then((r) => {
            if (r.ok && r.data) onAddress(r.data.address)
            else setNone(true)
          })
        }
      >
        {t('address.use')}
      </button>
      {none && <p className="field-hint">{t('address.noWallet')}</p>}
    </>
  )
}
