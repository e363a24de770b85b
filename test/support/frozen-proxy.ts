/**
 * A loopback TCP proxy that can freeze: it stops forwarding in both directions without closing anything, which is
 * what a desk sees when its laptop sleeps, its VPN drops or a NAT forgets it. A connection the server closes while
 * frozen is not closed toward the desk either (a one-sided cut: the desk is never told).
 */
import net from 'node:net'

export interface FrozenProxy {
  port: number
  freeze(): void
  close(): Promise<void>
}

export async function startFrozenProxy(target: { host: string; port: number }): Promise<FrozenProxy> {
  const pairs = new Set<{ up: net.Socket; down: net.Socket }>()
  let frozen = false
  const held = new Set<net.Socket>()
  const server = net.createServer((down) => {
    down.on('error', () => undefined)
    if (frozen) {
      // The network is gone: a new connection hangs, neither refused nor answered.
      down.pause()
      held.add(down)
      return
    }
    const up = net.connect(target.port, target.host)
    const pair = { up, down }
    pairs.add(pair)
    down.pipe(up)
    up.pipe(down)
    const cut = (): void => {
      pairs.delete(pair)
      if (frozen) return
      up.destroy()
      down.destroy()
    }
    up.on('close', cut)
    down.on('close', cut)
    up.on('error', () => undefined)
    down.on('error', () => undefined)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true
      for (const { up, down } of pairs) {
        down.unpipe(up)
        up.unpipe(down)
        down.pause()
        up.pause()
      }
    },
    close: async () => {
      for (const d of held) d.destroy()
      for (const { up, down } of pairs) {
        up.destroy()
        down.destroy()
      }
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
