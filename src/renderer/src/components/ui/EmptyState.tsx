/** What an empty list says, with the one action that fills it when there is one. */
import type { ReactNode } from 'react'

export function EmptyState({
  children,
  action,
}: {
  children: ReactNode
  action?: ReactNode
}): React.JSX.Element {
  return (
    <div className="empty-state">
      <p>{children}</p>
      {action}
    </div>
  )
}
