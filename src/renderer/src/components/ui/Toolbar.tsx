/**
 * A row of actions. `end` holds what must stay apart from the main actions (a destructive one is never next to
 * the action that moves money).
 */
import type { ReactNode } from 'react'

export function Toolbar({
  children,
  end,
  label,
}: {
  children: ReactNode
  end?: ReactNode
  label?: string
}): React.JSX.Element {
  return (
    <div className="toolbar" aria-label={label}>
      {children}
      {end && <div className="toolbar-end">{end}</div>}
    </div>
  )
}
