// Throughput of checkLiquidAddress. Plain tsx script: `npx tsx bench/liquid-address.bench.ts [calls]`.
// A bench runner can import { run } instead.
import { pathToFileURL } from 'node:url'
import { checkLiquidAddress, generateLiquidAddress, type LiquidNetwork } from '../src/main/liquid'

export type LiquidAddressBenchResult = {
  name: string
  calls: number
  totalMs: number
  opsPerSec: number
  usPerCall: number
}

const NETWORK: LiquidNetwork = 'liquid'

function inputs(): Record<string, string[]> {
  const confidential = Array.from({ length: 32 }, () => generateLiquidAddress(NETWORK).address)
  const unconfidential = Array.from(
    { length: 32 },
    () => generateLiquidAddress(NETWORK, { confidential: false }).address,
  )
  // A realistic mix of refusals: typos in both forms, another network's address, pasted junk.
  const invalid = [
    ...confidential.slice(0, 8).map(typo),
    ...unconfidential.slice(0, 8).map(typo),
    ...Array.from({ length: 8 }, () => generateLiquidAddress('testnet').address),
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    'not an address',
    'QFq3vvrr6Ub2KAyb3LdoCxEQvKukB6nN9j',
    '',
  ]
  return { 'valid confidential (lq1)': confidential, 'valid unconfidential (ex1)': unconfidential, invalid }
}

function typo(address: string): string {
  const i = address.length - 8
  return address.slice(0, i) + (address.charAt(i) === 'q' ? 'p' : 'q') + address.slice(i + 1)
}

function measure(name: string, pool: string[], calls: number): LiquidAddressBenchResult {
  let accepted = 0
  const warmup = Math.min(2_000, calls)
  for (let i = 0; i < warmup; i++) checkLiquidAddress(pool[i % pool.length] ?? '', NETWORK)
  const started = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) if (checkLiquidAddress(pool[i % pool.length] ?? '', NETWORK).ok) accepted++
  const totalMs = Number(process.hrtime.bigint() - started) / 1e6
  // Guards against benchmarking the wrong thing (and keeps the loop from being optimised away).
  const expected = name === 'invalid' ? 0 : calls
  if (accepted !== expected)
    throw new Error(`${name}: ${accepted} of ${calls} accepted, expected ${expected}`)
  return {
    name,
    calls,
    totalMs: round(totalMs),
    opsPerSec: Math.round((calls / totalMs) * 1000),
    usPerCall: round((totalMs * 1000) / calls),
  }
}

const round = (n: number): number => Math.round(n * 100) / 100

export function run(calls = 20_000): LiquidAddressBenchResult[] {
  return Object.entries(inputs()).map(([name, pool]) => measure(name, pool, calls))
}

function main(): void {
  const calls = Number(process.argv[2] ?? 20_000)
  if (!Number.isSafeInteger(calls) || calls < 1) throw new RangeError('calls must be a positive integer')
  console.log(`checkLiquidAddress, ${calls} calls per case, node ${process.version}`)
  for (const r of run(calls)) {
    const ops = r.opsPerSec.toLocaleString('en-US')
    console.log(
      `${r.name.padEnd(28)} ${ops.padStart(9)} ops/s  ${r.usPerCall.toFixed(2).padStart(8)} µs/call`,
    )
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
