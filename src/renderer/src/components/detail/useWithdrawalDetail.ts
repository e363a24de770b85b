/** Loads one withdrawal's detail and reloads it whenever main reports the record changed. */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { IpcError, IpcResult, WithdrawalDetail } from '../../../../shared/contract'
import { call, useEvent } from '../../ipc'

export interface DetailState {
  detail: WithdrawalDetail | null
  error: IpcError | null
  reload: () => Promise<void>
}

export function useWithdrawalDetail(localId: string): DetailState {
  const [detail, setDetail] = useState<WithdrawalDetail | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  // Answers can cross (an event reload and a button reload): only the latest request may set state.
  const seq = useRef(0)

  const apply = useCallback((mine: number, r: IpcResult<WithdrawalDetail>) => {
    if (mine !== seq.current) return
    if (r.ok) {
      setDetail(r.data)
      setError(null)
    } else setError(r.error)
  }, [])

  const reload = useCallback(async () => {
    const mine = ++seq.current
    apply(mine, await call('withdrawals:get', { localId }))
  }, [localId, apply])

  useEffect(() => {
    const mine = ++seq.current
    void call('withdrawals:get', { localId }).then((r) => apply(mine, r))
  }, [localId, apply])

  useEvent('withdrawal:changed', (record) => {
    if (record.localId === localId) void reload()
  })

  return { detail: detail?.record.localId === localId ? detail : null, error, reload }
}
