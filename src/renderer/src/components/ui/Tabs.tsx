/**
 * Tabs on @radix-ui/react-tabs (the WAI-ARIA tabs pattern: tablist/tab/tabpanel roles and ids, roving tabindex,
 * arrows that move and select, Home/End). Only the selected panel is rendered, unless `keepMounted`: then every
 * panel stays in the page, the others `hidden` (a panel that loads on mount — the stored receipt — loads once, and
 * what a hidden panel holds is still there when its tab is chosen).
 */
import * as RadixTabs from '@radix-ui/react-tabs'
import type { ReactNode } from 'react'

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
  // A value no item has (a tab that only some records show) falls back to the first, as before.
  const current = items.find((i) => i.id === value)?.id ?? items[0]?.id ?? ''
  return (
    <RadixTabs.Root className="tabs" value={current} onValueChange={onChange} activationMode="automatic">
      <RadixTabs.List aria-label={label} className="tab-list">
        {items.map((item) => (
          <RadixTabs.Trigger key={item.id} value={item.id} className="tab" data-tab={item.id}>
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content
          key={item.id}
          value={item.id}
          className="tab-panel"
          data-panel={item.id}
          // Radix un-hides a force-mounted panel; a kept panel that is not chosen must stay out of sight and
          // out of the accessibility tree.
          forceMount={keepMounted ? true : undefined}
          hidden={item.id !== current}
        >
          {keepMounted || item.id === current ? item.panel() : null}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  )
}
