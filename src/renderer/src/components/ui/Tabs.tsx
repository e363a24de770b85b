/**
 * Tabs with the WAI-ARIA tabs pattern (tablist/tab/tabpanel, roving tabindex, arrow keys, Home/End), written here
 * because @radix-ui/react-tabs is not among the installed packages. Only the selected panel is rendered.
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
}: {
  items: readonly TabItem[]
  value: string
  onChange: (id: string) => void
  label: string
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
      {current && (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
          className="tab-panel"
          tabIndex={0}
        >
          {current.panel()}
        </div>
      )}
    </div>
  )
}
