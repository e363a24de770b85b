import { useEffect, useState } from 'react'

/** The current time, re-read every `intervalMs`: for "expires in N days" texts that must not go stale. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}
