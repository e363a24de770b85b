import { create } from 'zustand'

export type Route =
  | { page: 'newWithdrawal' }
  | { page: 'funding'; localId: string }
  | { page: 'withdrawals' }
  | { page: 'detail'; localId: string }
  | { page: 'records' }
  | { page: 'review' }
  | { page: 'settings' }
  | { page: 'sandbox' }

/** Top-level pages in the navigation, in order. */
export const NAV_PAGES = ['newWithdrawal', 'withdrawals', 'records', 'review', 'settings', 'sandbox'] as const
export type NavPage = (typeof NAV_PAGES)[number]

interface RouteState {
  route: Route
  go: (route: Route) => void
}

export const useRoute = create<RouteState>((set) => ({
  route: { page: 'newWithdrawal' },
  go: (route) => set({ route }),
}))
