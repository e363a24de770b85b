/** A titled block of a page. The heading names the section for assistive technology. */
import { useId, type ReactNode } from 'react'

export function Card({
  title,
  children,
  actions,
  testId,
}: {
  title?: ReactNode
  children: ReactNode
  actions?: ReactNode
  testId?: string
}): React.JSX.Element {
  const id = useId()
  return (
    <section className="card" aria-labelledby={title ? id : undefined} data-testid={testId}>
      {(title || actions) && (
        <div className="card-head">
          {title && <h3 id={id}>{title}</h3>}
          {actions && <div className="toolbar">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  )
}
