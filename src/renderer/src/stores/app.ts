/** App-wide facts the shell shows on every page: app info, active profile, session, allowances. */
import { create } from 'zustand'
import type { Allowances, AppInfo, IpcError, SessionView } from '../../../shared/contract'
import { call } from '../ipc'

interface AppState {
  info: AppInfo | null
  infoError: IpcError | null
  session: SessionView | null
  allowances: Allowances | null
  refreshInfo: () => Promise<void>
  setSession: (s: SessionView | null) => void
  setAllowances: (a: Allowances) => void
}

export const useApp = create<AppState>((set) => ({
  info: null,
  infoError: null,
  session: null,
  allowances: null,
  refreshInfo: async () => {
    const r = await call('app:info')
    if (r.ok) set({ info: r.data, infoError: null })
    else set({ infoError: r.error })
  },
  setSession: (session) => set({ session }),
  setAllowances: (allowances) => set({ allowances }),
}))
