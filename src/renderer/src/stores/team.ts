/**
 * The desk's standing in the team and the approvals queue (issue #16), shared by the layout (status line, nav
 * badge, banner) and the "Aprovações" page. Filled from `team:status` / `approvals:list` and kept current by the
 * `team:status` and `approval:changed` events; on this computer's ledger (SQLite) it stays empty.
 */
import { create } from 'zustand'
import type { ApprovalView, TeamStatus } from '../../../shared/channels-team'
import type { IpcError } from '../../../shared/contract'
import type { RunApprovalItem } from '../../../shared/run-approval'
import {
  applyChange,
  nextToast,
  sortQueue,
  toastFor,
  toastStillPending,
  withoutSent,
  type ToastKind,
} from '../components/approvals/approval-model'
import { sortRunQueue } from '../components/approvals/run-approval-model'
import { call } from '../ipc'

export interface ApprovalToast {
  kind: ToastKind
  approval: ApprovalView
}

interface TeamState {
  status: TeamStatus | null
  approvals: ApprovalView[]
  /** Payment runs waiting for another analyst's approval (approved on the run's own screen). */
  runs: RunApprovalItem[]
  listError: IpcError | null
  /** The latest live change this desk should hear about; null once dismissed. */
  toast: ApprovalToast | null
  /** Asks main again (start-up, profile switch): the status, then the queue when on a team ledger. */
  refresh: () => Promise<void>
  refreshList: () => Promise<void>
  /** A run changed on some desk (`run:changed`): the runs waiting for approval are asked again. */
  refreshRuns: () => Promise<void>
  /**
   * Asks main for the standing only (the limit is read again from the server): main does not push a limit the
   * owner changed, so the review step asks before it names the limit. A failure keeps what is known.
   */
  refreshStatus: () => Promise<void>
  setStatus: (status: TeamStatus) => void
  /** A change from main (event) or from this desk's own call: the queue follows, a banner maybe. */
  changed: (approval: ApprovalView, fromEvent: boolean) => void
  /** A payment record changed on some desk: an approved item it belongs to was sent. */
  recordChanged: (localId: string) => void
  dismissToast: () => void
}

export const useTeam = create<TeamState>((set, get) => ({
  status: null,
  approvals: [],
  runs: [],
  listError: null,
  toast: null,
  refresh: async () => {
    const r = await call('team:status')
    // A main without the team channels (or a failure) reads as this computer's ledger: nothing team-only shows.
    const status = r.ok ? r.data : null
    set({ status })
    if (status?.engine === 'postgres') await get().refreshList()
    else set({ approvals: [], runs: [], listError: null, toast: null })
  },
  refreshList: async () => {
    const [r] = await Promise.all([call('approvals:list'), get().refreshRuns()])
    if (r.ok)
      set((s) => ({
        approvals: sortQueue(r.data),
        listError: null,
        toast: toastStillPending(s.toast, r.data),
      }))
    else set({ listError: r.error })
  },
  refreshRuns: async () => {
    // Only a team ledger has approvals; a failure keeps the runs known (the payments' read reports the problem).
    if (get().status?.engine !== 'postgres') return
    const r = await call('approvals:runs')
    if (r.ok) set({ runs: sortRunQueue(r.data) })
  },
  refreshStatus: async () => {
    const r = await call('team:status')
    if (r.ok) get().setStatus(r.data)
  },
  setStatus: (status) => {
    const before = get().status
    const wasConnected = before?.engine === 'postgres' && before.connected
    set({ status })
    // Connected again (or newly on a team): what was decided meanwhile arrived without events.
    if (status.engine === 'postgres' && status.connected && !wasConnected) void get().refreshList()
  },
  changed: (approval, fromEvent) => {
    // Only a team ledger has approvals: a stray event on this computer's ledger changes nothing.
    if (get().status?.engine !== 'postgres') return
    const kind = fromEvent ? toastFor(approval, get().status?.identity ?? null) : null
    set((s) => ({
      approvals: applyChange(s.approvals, approval),
      toast: nextToast(s.toast, approval, kind),
    }))
  },
  recordChanged: (localId) => {
    const { approvals } = get()
    if (!approvals.some((a) => a.state === 'approved' && a.localId === localId)) return
    set({ approvals: withoutSent(approvals, localId) })
  },
  dismissToast: () => set({ toast: null }),
}))
