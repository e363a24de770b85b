import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { delimiter, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { call, control } from './helpers'

const root = resolve(__dirname, '../../..')

describe('CLI (npm run sandbox)', () => {
  it('--port 0 --json prints one JSON line, serves the API, and exits 0 on SIGTERM', async () => {
    const bin = join(root, 'node_modules/.bin')
    const child = spawn(join(bin, 'tsx'), ['src/main/sandbox/cli.ts', '--port', '0', '--json'], {
      cwd: root,
      // tsx's shebang resolves `node` from PATH: put the project's Node 24 first.
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const [first] = (await once(lines, 'line')) as [string]
      const facts = JSON.parse(first) as {
        baseUrl: string
        clientId: string
        clientSecret: string
        controlUrl: string
        controlToken: string
      }
      expect(Object.keys(facts).sort()).toEqual([
        'baseUrl',
        'clientId',
        'clientSecret',
        'controlToken',
        'controlUrl',
      ])
      expect(facts.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(facts.controlUrl).toBe(`${facts.baseUrl}/_sandbox`)
      // The control surface answers the printed token and nothing else.
      expect((await call(facts.controlUrl, 'GET', '/summary')).status).toBe(401)
      expect((await control(facts, 'GET', '/summary')).status).toBe(200)

      const loginRes = await call(facts.baseUrl, 'POST', '/api/v2/auth/login', {
        body: { client_id: facts.clientId, client_secret: facts.clientSecret },
      })
      expect(loginRes.status).toBe(200)
      const ping = await call(facts.baseUrl, 'GET', '/api/ping', { token: loginRes.body.access_token })
      expect(ping.status).toBe(200)
      expect(ping.body.response.msg).toEqual(expect.any(String))

      const extra: string[] = []
      lines.on('line', (l) => extra.push(l))
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      expect(code).toBe(0)
      expect(extra).toEqual([])
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
