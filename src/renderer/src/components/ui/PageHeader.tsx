/**
 * A page's title, its actions on the same line, and the lead sentence under it: every page's header (a build test
 * fails on a page that writes its own `<h2>`).
 */
import type { ReactNode, Ref } from 'react'

export function PageHeader({
  id,
  title,
  lead,
  actions,
  headingRef,
  leadLive = false,
}: {
  /** The heading's id, for the page's aria-labelledby. */
  id?: string
  title: ReactNode
  lead?: ReactNode
  actions?: ReactNode
  /** For a page that moves the focus to its title when it opens (the heading is then focusable). */
  headingRef?: Ref<HTMLHeadingElement>
  /** The lead changes with the page's step: announced politely. */
  leadLive?: boolean
}): React.JSX.Element {
  return (
    <header className="page-header">
      <div className="page-head">
        <h2 id={id} ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
          {title}
        </h2>
        {actions && <div className="toolbar">{actions}</div>}
      </div>
      {lead && (
        <p className="page-intro" aria-live={leadLive ? 'polite' : undefined}>
          {lead}
        </p>
      )}
    </header>
  )
}
