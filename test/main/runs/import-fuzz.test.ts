/**
 * Import fuzzing: mutated CSV and XLSX files (bytes flipped, cut, repeated, spliced), random bytes, formula-looking
 * cells everywhere. The import must always answer — rows and problems, or the file refused with a reason — and
 * never throw or hang (each XLSX read is bounded by the worker's time limit; vitest's timeout bounds the rest).
 */
import { describe, expect, it } from 'vitest'
import { importRunFile } from '../../../src/main/runs/import'
import { runMessages } from '../../../src/shared/run'
import { withdrawalMessages } from '../../../src/shared/withdrawal'
import { CPF, HEADER_PT, csvBytes, goodLines, lineOf, validateCtx, xlsxBytes } from './helpers'

const ctx = validateCtx()

/** Deterministic PRNG (mulberry32): a failure is reproducible from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function mutate(src: Uint8Array, r: () => number): Uint8Array {
  const b = Uint8Array.from(src)
  const kind = Math.floor(r() * 5)
  if (kind === 0) {
    for (let i = 0; i < 1 + r() * 20; i++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256)
    return b
  }
  if (kind === 1) return b.subarray(0, Math.floor(r() * b.length))
  if (kind === 2) {
    const at = Math.floor(r() * b.length)
    const piece = b.subarray(at, Math.min(b.length, at + Math.floor(r() * 200)))
    const out = new Uint8Array(b.length + piece.length * 3)
    out.set(b.subarray(0, at))
    for (let k = 0; k < 3; k++) out.set(piece, at + k * piece.length)
    out.set(b.subarray(at), at + piece.length * 3)
    return out
  }
  if (kind === 3) {
    const special = [0x22, 0x3b, 0x2c, 0x0a, 0x0d, 0x3d, 0x00, 0xef, 0xbb, 0xbf, 0xc3]
    for (let i = 0; i < 1 + r() * 10; i++)
      b[Math.floor(r() * b.length)] = special[Math.floor(r() * special.length)]!
    return b
  }
  return Uint8Array.from({ length: Math.floor(r() * 4096) }, () => Math.floor(r() * 256))
}

const KNOWN = new Set([...Object.keys(runMessages), ...Object.keys(withdrawalMessages)])

function expectAnswer(r: Awaited<ReturnType<typeof importRunFile>>, seed: number): void {
  for (const i of r.issues) {
    expect(KNOWN.has(i.code), `seed ${seed}: unknown code ${i.code}`).toBe(true)
    expect(i.message['pt-BR'].length, `seed ${seed}`).toBeGreaterThan(0)
  }
  // A file is never both silently empty and without a reason.
  expect(r.rows.length + r.issues.length, `seed ${seed}`).toBeGreaterThan(0)
}

describe('import fuzzing', () => {
  it('mutated CSV files always answer with rows or reasons', async () => {
    const base = csvBytes([HEADER_PT, ...goodLines(20), lineOf({ key: '="x"', payout: '=1+1', tax: CPF })])
    for (let seed = 1; seed <= 400; seed++) {
      const r = await importRunFile(mutate(base, rng(seed)), ctx)
      expectAnswer(r, seed)
    }
  })

  it('formula-looking text in any column is refused with its message, never passed on', async () => {
    const cols = ['payee', 'key', 'nf', 'cc', 'cat', 'note', 'refund'] as const
    for (const start of ['=', '+', '-', '@', '\t=', ' =']) {
      for (const col of cols) {
        const base = { key: 'a@example.com', tax: CPF, payout: '10,00' }
        const r = await importRunFile(
          csvBytes([HEADER_PT, lineOf({ ...base, [col]: `${start}HYPERLINK("x")` })]),
          ctx,
        )
        expect(r.rows, `${col} ${JSON.stringify(start)}`).toEqual([])
        expect(r.issues.map((i) => i.code)).toContain('formula_like')
      }
    }
  })

  it('mutated XLSX files always answer (bounded by the worker)', async () => {
    const base = await xlsxBytes([
      ['Favorecido', 'Chave Pix', 'CPF/CNPJ', 'Valor do Pix (R$)'],
      ...Array.from({ length: 10 }, (_, i) => [`F${i}`, `f${i}@example.com`, CPF, 10 + i]),
    ])
    for (let seed = 1; seed <= 25; seed++) {
      const r = await importRunFile(mutate(base, rng(1000 + seed)), ctx, { timeoutMs: 10_000 })
      expectAnswer(r, 1000 + seed)
    }
  }, 120_000)
})
