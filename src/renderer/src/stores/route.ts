import { create } from 'zustand'

export type Route =
  | { page: 'today' }
  | { page: 'newWithdrawal' }
  | { page: 'funding'; localId: string }
  | { page: 'withdrawals' }
  | { page: 'approvals' }
  /** `runId`: open that run (from the approvals queue or a notification). */
  | { page: 'runs'; runId?: string }
  | { page: 'detail'; localId: string }
  | { page: 'payees' }
  | { page: 'records' }
  | { page: 'review' }
  | { page: 'settings' }
  | { page: 'sandbox' }
  | { page: 'buyDepix' }
  | { page: 'deposits' }
  | { page: 'depositDetail'; localId: string }
  | { page: 'caixa' }

/** Top-level pages in the navigation, in order. */
export const NAV_PAGES = [
  'today',
  'caixa',
  'newWithdrawal',
  'withdrawals',
  'approvals',
  'payees',
  'runs',
  'buyDepix',
  'deposits',
  'records',
  'review',
  'settings',
  'sandbox',
] as const
export type NavPage = (typeof NAV_PAGES)[number]

interface RouteState {
  route: Route
  go: (route: Route) => void
}

export const useRoute = create<RouteState>((set) => ({
  // The home page: what needs the analyst now and what was paid today.
  route: { page: 'today' },
  go: (route) => set({ route }),
}))
