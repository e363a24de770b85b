/**
 * On this computer's ledger there is no team registry of treasury addresses: what a desk has registered is its
 * profile's default refund address (Configurações) and its treasury wallet's own addresses (Caixa). A run's
 * refund address that is neither is marked to whoever reviews the run before it starts, as a team approver sees
 * the team's unregistered ones (issue #26). Asked of main (`profiles:list`, `wallet:checkAddress`); main decides
 * what the wallet owns.
 */
import { useEffect, useState } from 'react'
import { call } from '../../ipc'

/**
 * The addresses to mark; null while asking, when `enabled` is false (a team ledger says it itself), or when the
 * profile has neither a default refund address nor a wallet (nothing registered to compare with).
 */
export function useDeskRefundCheck(
  addresses: readonly string[],
  enabled: boolean,
): ReadonlySet<string> | null {
  const key = enabled ? [...new Set(addresses)].sort().join('\n') : ''
  const [answer, setAnswer] = useState<{ key: string; unregistered: ReadonlySet<string> | null } | null>(null)
  useEffect(() => {
    if (key === '') return
    let live = true
    const list = key.split('\n')
    void Promise.all([
      call('profiles:list'),
      ...list.map((address) => call('wallet:checkAddress', { address })),
    ]).then(([profiles, ...owners]) => {
      if (!live) return
      const active = profiles.ok ? profiles.data.profiles.find((p) => p.id === profiles.data.activeId) : null
      const fallback = active?.defaultRefundAddress?.trim() || null
      const wallet = owners.some((o) => o.ok && o.data.owner !== 'unknown')
      if (fallback === null && !wallet) {
        setAnswer({ key, unregistered: null })
        return
      }
      const unregistered = new Set(
        list.filter((a, i) => {
          const o = owners[i]
          return a !== fallback && !(o?.ok === true && o.data.owner === 'treasury')
        }),
      )
      setAnswer({ key, unregistered })
    })
    return () => {
      live = false
    }
  }, [key])
  return answer !== null && answer.key === key ? answer.unregistered : null
}
