/**
 * Tabs with the WAI-ARIA tabs pattern (tablist/tab/tabpanel, roving tabindex, arrow keys, Home/End), written here
 * because @radix-ui/react-tabs is not among the installed packages. Only the selected panel is rendered, unless
 * `keepMounted`: then every panel stays in the page, the others `hidden` (a panel that loads on mount — the stored
 * receipt — loads once, and what a hidden panel holds is still there when its tab is chosen).
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface TabItem {
  id: string
  label: ReactNode
  panel: () => ReactNode
}

export function Tabs({
  items,
  value,
  onChange,
  label,
  keepMounted = false,
}: {
  items: readonly TabItem[]
  value: string
  onChange: (id: string) => void
  label: string
  keepMounted?: boolean
}): React.JSX.Element {
  const base = useId()
  const refs = useRef(new Map<string, HTMLButtonElement>())
  const current = items.find((i) => i.id === value) ?? items[0]
  const move = (e: KeyboardEvent<HTMLButtonElement>, index: number): void => {
    const last = items.length - 1
    const to =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null
    if (to === null) return
    e.preventDefault()
    const next = items[to]!
    onChange(next.id)
    refs.current.get(next.id)?.focus()
  }
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {items.map((item, index) => {
          const selected = item.id === current?.id
          return (
            <button
              key={item.id}
              ref={(el) => {
                if (el) refs.current.set(item.id, el)
                else refs.current.delete(item.id)
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${base}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              className="tab"
              data-tab={item.id}
              onClick={() => onChange(item.id)}
              onKeyDown={(e) => move(e, index)}
            >
              {item.label}
            </button>
          )
        })}
      </div>
      {(keepMounted ? items : current ? [current] : []).map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${base}-panel-${item.id}`}
          aria-labelledby={`${base}-tab-${item.id}`}
          className="tab-panel"
          data-panel={item.id}
          hidden={item.id !== current?.id}
          tabIndex={0}
        >
          {item.panel()}
        </div>
      ))}
    </div>
  )
}
