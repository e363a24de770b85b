import { useEffect, useState } from 'react'
import type { ChannelOutput, IpcError } from '../../../../shared/contract'
import { call } from '../../ipc'

export type SigningKey = ChannelOutput<'records:publicKey'>

/** This installation's export signing key (public part only): shown in Settings and as a reminder on export. */
export function useSigningKey(): { key: SigningKey | null; error: IpcError | null } {
  const [key, setKey] = useState<SigningKey | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  useEffect(() => {
    let live = true
    void call('records:publicKey').then((r) => {
      if (!live) return
      if (r.ok) setKey(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [])
  return { key, error }
}
