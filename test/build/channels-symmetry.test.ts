/**
 * Channels and handlers are symmetric per feature (issue #29): every channel is declared in one feature file,
 * src/shared/channels-X.ts (`xChannels`), and answered by one handler module, src/main/app/X-handlers.ts, typed
 * `HandlersOf<typeof xChannels>` — which the compiler holds to exactly that feature's channels. contract.ts only
 * composes them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { channels } from '../../src/shared/contract'

const repo = resolve(__dirname, '../..')
const shared = join(repo, 'src/shared')
const app = join(repo, 'src/main/app')

/** `teamConnection` → `team-connection`. */
const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** Every `export const xChannels` of the feature files, with the file that declares it. */
function featureChannelObjects(): Array<{ name: string; file: string }> {
  return readdirSync(shared)
    .filter((f) => /^channels-[a-z-]+\.ts$/.test(f))
    .flatMap((file) =>
      [...readFileSync(join(shared, file), 'utf8').matchAll(/^export const ([a-zA-Z]+)Channels = \{/gm)].map(
        (m) => ({ name: m[1]!, file }),
      ),
    )
}

describe('channels ↔ handlers, per feature', () => {
  it('each feature file has its handler module, typed against exactly its channels', () => {
    const objects = featureChannelObjects()
    expect(objects.length).toBeGreaterThanOrEqual(16)
    const handlerFiles = new Set(readdirSync(app).filter((f) => f.endsWith('-handlers.ts')))
    for (const { name, file } of objects) {
      const handlers = `${kebab(name)}-handlers.ts`
      expect(handlerFiles, `${file}: ${name}Channels has no src/main/app/${handlers}`).toContain(handlers)
      const text = readFileSync(join(app, handlers), 'utf8')
      expect(text, handlers).toContain(`HandlersOf<typeof ${name}Channels>`)
      handlerFiles.delete(handlers)
    }
    // No handler module without a feature file of its own.
    expect([...handlerFiles]).toEqual([])
  })

  it('contract.ts declares no channel of its own: the feature files hold every one, each once', async () => {
    const declared: string[] = []
    for (const { name, file } of featureChannelObjects()) {
      const mod = (await import(join(shared, file))) as Record<string, Record<string, unknown>>
      declared.push(...Object.keys(mod[`${name}Channels`]!))
    }
    expect(new Set(declared).size).toBe(declared.length)
    expect(declared.sort()).toEqual(Object.keys(channels).sort())
  })
})
