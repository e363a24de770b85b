/** A page's title, its actions on the same line, and the lead sentence under it. */
import type { ReactNode } from 'react'

export function PageHeader({
  id,
  title,
  lead,
  actions,
}: {
  /** The heading's id, for the page's aria-labelledby. */
  id?: string
  title: ReactNode
  lead?: ReactNode
  actions?: ReactNode
}): React.JSX.Element {
  return (
    <header className="page-header">
      <div className="page-head">
        <h2 id={id}>{title}</h2>
        {actions && <div className="toolbar">{actions}</div>}
      </div>
      {lead && <p className="page-intro">{lead}</p>}
    </header>
  )
}
