/**
 * A status in words with its colour by meaning (the one badge of every list). Record statuses have their own
 * wording helpers (StatusBadge, DepositStatusBadge); this is the chip they and the run states share.
 */
import type { ReactNode } from 'react'

export type ChipTone = 'pending' | 'success' | 'attention' | 'failure' | 'neutral'

const TONE_CLASS: Record<ChipTone, string> = {
  pending: 'badge badge-processing',
  success: 'badge badge-paid',
  attention: 'badge badge-attention',
  failure: 'badge badge-rejected',
  neutral: 'badge badge-cancelled',
}

export function StatusChip({
  tone,
  children,
  testId,
}: {
  tone: ChipTone
  children: ReactNode
  testId?: string
}): React.JSX.Element {
  return (
    <span className={TONE_CLASS[tone]} data-tone={tone} data-testid={testId}>
      {children}
    </span>
  )
}
