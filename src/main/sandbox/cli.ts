/**
 * `npx tsx src/main/sandbox/cli.ts [--port N] [--json]` (npm run sandbox): runs the sandbox on 127.0.0.1
 * until SIGINT/SIGTERM. `--json` prints exactly one line for scripts and tests; otherwise a readable banner.
 */
import { startSandbox } from './index'

interface CliArgs {
  port: number
  json: boolean
}

function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { port: 0, json: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--json') {
      args.json = true
    } else if (a === '--port' || a?.startsWith('--port=')) {
      const v = a === '--port' ? argv[++i] : a.slice('--port='.length)
      const port = Number(v)
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        throw new Error(`--port needs 0..65535, got ${v}`)
      }
      args.port = port
    } else if (a === '--help' || a === '-h') {
      process.stdout.write('Usage: tsx src/main/sandbox/cli.ts [--port N] [--json]\n')
      process.exit(0)
    } else {
      throw new Error(`unknown argument: ${a}`)
    }
  }
  return args
}

function banner(facts: {
  esploraUrl: string
  baseUrl: string
  clientId: string
  clientSecret: string
  controlUrl: string
  controlToken: string
}): string {
  const { baseUrl, clientId, clientSecret, controlUrl, controlToken, esploraUrl } = facts
  const credentialsJson = `{"client_id":"${clientId}","client_secret":"${clientSecret}"}`
  const extractToken = `sed 's/.*"access_token":"\\([^"]*\\)".*/\\1/'`
  const bearer = `-H "Authorization: Bearer $TOKEN"`
  const json = `-H 'Content-Type: application/json'`
  return [
    '',
    '  DePix API sandbox — test environment, no real money moves',
    '',
    `  Base URL       ${baseUrl}   (operations under /api, auth under /api/v2/auth)`,
    `  client_id      ${clientId}`,
    `  client_secret  ${clientSecret}`,
    `  Control        ${controlUrl}   (sandbox only, not part of the DePix API; see docs/SANDBOX.md)`,
    `  control token  ${controlToken}   (new on every run; send it as Authorization: Bearer)`,
    `  Liquid chain   ${esploraUrl}   (Esplora subset, regtest; see docs/SANDBOX.md)`,
    '',
    '  Try:',
    `    TOKEN=$(curl -s -X POST ${baseUrl}/api/v2/auth/login ${json} \\`,
    `      -d '${credentialsJson}' | ${extractToken})`,
    `    curl -s ${baseUrl}/api/ping ${bearer}`,
    `    curl -s -X POST ${baseUrl}/api/withdraw ${bearer} ${json} \\`,
    `      -d '{"pixKey":"maria@example.com","taxNumber":"52998224725","payoutAmountInCents":10000}'`,
    `    curl -s -X POST ${controlUrl}/withdrawals/<withdrawalId>/fund -H "Authorization: Bearer ${controlToken}" \\`,
    `      ${json} -d '{"amountInCents":10102}'`,
    `    curl -s -X POST ${controlUrl}/withdrawals/<withdrawalId>/settle -H "Authorization: Bearer ${controlToken}" \\`,
    `      ${json} -d '{"outcome":"sent"}'`,
    '',
    '  Ctrl+C to stop.',
    '',
  ].join('\n')
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const sandbox = await startSandbox({ port: args.port, host: '127.0.0.1' })
  const facts = {
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    controlUrl: sandbox.controlUrl,
    controlToken: sandbox.controlToken,
  }
  process.stdout.write(
    args.json ? `${JSON.stringify(facts)}\n` : `${banner({ ...facts, esploraUrl: sandbox.esploraUrl })}\n`,
  )
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${(e as Error).message}\n`)
  process.exit(2)
})
