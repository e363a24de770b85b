/**
 * The refund address checked by main (`liquid:check`) as the user types, debounced. The renderer has no Liquid
 * library: main decodes the address against the active profile's network, so a testnet or regtest address on
 * mainnet (or the reverse) is refused before anything is sent.
 */
import { useEffect, useState } from 'react'
import type { IpcError, LiquidCheck } from '../../../../shared/contract'
import { call } from '../../ipc'

export const LIQUID_CHECK_DEBOUNCE_MS = 350

export type LiquidCheckState =
  | { state: 'empty' }
  | { state: 'checking' }
  | { state: 'done'; check: LiquidCheck }
  | { state: 'failed'; error: IpcError }

type Answer = { address: string; network: string | undefined } & (
  { check: LiquidCheck; error?: never } | { error: IpcError; check?: never }
)

export function useLiquidCheck(address: string, network: string | undefined): LiquidCheckState {
  const trimmed = address.trim()
  const [answer, setAnswer] = useState<Answer | null>(null)

  useEffect(() => {
    if (trimmed === '') return
    let live = true
    const timer = setTimeout(() => {
      void call('liquid:check', { address: trimmed }).then((r) => {
        if (!live) return
        setAnswer(
          r.ok ? { address: trimmed, network, check: r.data } : { address: trimmed, network, error: r.error },
        )
      })
    }, LIQUID_CHECK_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [trimmed, network])

  if (trimmed === '') return { state: 'empty' }
  // An answer about another address (or another profile's network) says nothing about this one.
  if (!answer || answer.address !== trimmed || answer.network !== network) return { state: 'checking' }
  return answer.check ? { state: 'done', check: answer.check } : { state: 'failed', error: answer.error }
}
