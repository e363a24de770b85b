/**
 * The in-app banner for a live approval change this desk should act on or hear about (another analyst's
 * request, a decision on this desk's request). Desktop notifications are main's; this covers the open window.
 */
import { useTranslation } from 'react-i18next'
import { currentLanguage } from '../../i18n'
import { useRoute } from '../../stores/route'
import { useTeam } from '../../stores/team'
import { amountText } from './approval-model'

export function ApprovalToast(): React.JSX.Element | null {
  const { t } = useTranslation('approvals')
  const toast = useTeam((s) => s.toast)
  const dismiss = useTeam((s) => s.dismissToast)
  const go = useRoute((s) => s.go)
  if (!toast) return null
  const a = toast.approval
  const text = t(`toast.${toast.kind}`, {
    requester: a.requestedBy,
    approver: a.decidedBy ?? '',
    amount: amountText(a, currentLanguage()),
    pixKey: a.pixKey,
  })
  return (
    <div className="banner banner-approval" role="status" data-testid="approval-toast" data-kind={toast.kind}>
      <span>{text}</span>
      <span className="banner-actions">
        <button
          type="button"
          className="btn"
          onClick={() => {
            dismiss()
            go({ page: 'approvals' })
          }}
        >
          {t('toast.open')}
        </button>
        <button type="button" className="btn" onClick={dismiss}>
          {t('toast.dismiss')}
        </button>
      </span>
    </div>
  )
}
