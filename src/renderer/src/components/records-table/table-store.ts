/**
 * What each records table was showing (filters, sort, scroll position), kept per table for the session, so going
 * to a withdrawal's detail and back returns to the same place in the list.
 */
import { create } from 'zustand'
import { DEFAULT_SORT, EMPTY_FILTER, type FilterInput, type SortState } from './filter-model'

export interface TableView {
  input: FilterInput
  sort: SortState
  scrollTop: number
  /** The query `scrollTop` belongs to: another query starts at the top. */
  scrollKey: string
}

const INITIAL: TableView = { input: EMPTY_FILTER, sort: DEFAULT_SORT, scrollTop: 0, scrollKey: '' }

interface TableStore {
  views: Record<string, TableView>
  update: (id: string, patch: Partial<TableView>) => void
  reset: (id: string) => void
}

export const useTableStore = create<TableStore>((set) => ({
  views: {},
  update: (id, patch) =>
    set((s) => ({ views: { ...s.views, [id]: { ...(s.views[id] ?? INITIAL), ...patch } } })),
  reset: (id) =>
    set((s) => {
      const views = { ...s.views }
      delete views[id]
      return { views }
    }),
}))

export function useTableView(id: string): TableView {
  return useTableStore((s) => s.views[id]) ?? INITIAL
}
