/** The current time, ticking every `ms` (1 s by default): for countdowns. */
import { useEffect, useState } from 'react'

export function useNowTick(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}
