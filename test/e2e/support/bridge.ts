/**
 * Loads the built renderer (out/renderer) in Chromium with `window.treasury` bridged to the real main-side
 * router in the test process: the same handlers `ipcMain` gets in the app. Files are served with the headers the
 * `app://` protocol sends (real CSP), and every other request is refused, as in the app.
 */
import { resolve } from 'node:path'
import type { Page } from '@playwright/test'
import type { Router } from '../../../src/main/ipc/router'
import { readRendererAsset, RENDERER_HEADERS } from '../../../src/main/shell/renderer-policy'

export const RENDERER_ORIGIN = 'http://treasury.localhost'
const rendererDir = resolve(__dirname, '../../../out/renderer')

export interface Bridge {
  /** Pushes an event to the renderer as main's `webContents.send` would. */
  emit(event: string, payload: unknown): Promise<void>
  /** Every call the renderer made, with its result: for tests that search payloads for secrets. */
  calls: Array<{ channel: unknown; input: unknown; result: unknown }>
  /** From now on calls go to `router` (the fixture's restart: a new app context behind the same page). */
  rebind(router: Router): void
}

export async function openRenderer(page: Page, router: Router): Promise<Bridge> {
  const calls: Bridge['calls'] = []
  // Playwright binds a name once per page, so a restart swaps the router behind the binding instead.
  let current = router
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if (url.origin !== RENDERER_ORIGIN) return route.abort('blockedbyclient')
    const asset = await readRendererAsset(rendererDir, url.pathname)
    if (!asset) return route.fulfill({ status: 404, body: 'Not found' })
    return route.fulfill({
      status: 200,
      body: asset.body,
      headers: { 'Content-Type': asset.contentType, ...RENDERER_HEADERS },
    })
  })
  await page.exposeBinding('__treasuryInvoke', async (_source, channel: unknown, input: unknown) => {
    const result = await current.handle(channel, input)
    calls.push({ channel, input, result })
    return result
  })
  await page.addInitScript(() => {
    type Listener = (payload: unknown) => void
    const listeners = new Map<string, Set<Listener>>()
    const w = window as unknown as {
      __treasuryInvoke: (c: unknown, i: unknown) => Promise<unknown>
      __treasuryEmit: (e: string, p: unknown) => void
      treasury: unknown
    }
    w.__treasuryEmit = (event, payload) => {
      for (const l of listeners.get(event) ?? []) l(payload)
    }
    w.treasury = Object.freeze({
      invoke: (channel: unknown, input: unknown) => w.__treasuryInvoke(channel, input),
      on: (event: string, listener: Listener) => {
        const set = listeners.get(event) ?? new Set<Listener>()
        set.add(listener)
        listeners.set(event, set)
        return () => set.delete(listener)
      },
    })
  })
  await page.goto(`${RENDERER_ORIGIN}/index.html`)
  return {
    calls,
    rebind: (next) => {
      current = next
    },
    emit: async (event, payload) => {
      await page.evaluate(
        ([e, p]) =>
          (window as unknown as { __treasuryEmit: (e: string, p: unknown) => void }).__treasuryEmit(
            e as string,
            p,
          ),
        [event, payload] as const,
      )
    },
  }
}
