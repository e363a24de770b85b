/** Says plainly whether saved secrets survive a restart. */
import { useTranslation } from 'react-i18next'

export interface VaultStatus {
  persistent: boolean
  reason: string
}

const KNOWN_REASONS = ['encryption_unavailable', 'basic_text_backend', 'file_unreadable'] as const

export function VaultNotice({ vault }: { vault: VaultStatus }): React.JSX.Element {
  const { t } = useTranslation('settings')
  if (vault.persistent) {
    return (
      <p className="alert alert-ok" data-testid="vault-status">
        {t('vault.persistent')}
      </p>
    )
  }
  // 'ok' on a non-persistent vault: one built memory-only on purpose (tests, a portable run).
  const reason = (KNOWN_REASONS as readonly string[]).includes(vault.reason)
    ? t(`vault.reason.${vault.reason as (typeof KNOWN_REASONS)[number]}`)
    : vault.reason === 'ok'
      ? t('vault.reason.memoryOnly')
      : t('vault.reason.other', { reason: vault.reason })
  return (
    <div className="alert alert-warn" role="alert" data-testid="vault-status">
      <p className="alert-title">{t('vault.memoryTitle')}</p>
      <p>{t('vault.memoryBody')}</p>
      <p>
        {t('vault.reasonLabel')}: {reason}
      </p>
    </div>
  )
}
