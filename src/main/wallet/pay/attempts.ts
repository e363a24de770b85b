/**
 * Funding attempts: which payments each funding transaction pays, and how far it got. A payment belongs to at most
 * one attempt not known to have failed — `active` is what the builder asks before putting a payment in a PSET.
 *
 *   built → signed → broadcast → recorded        built | signed → cancelled        broadcast → signed (refused)
 *
 * Kept in one JSON file per profile, replaced atomically on every step and read back through zod; a file that
 * does not read back refuses every build (fail closed) instead of starting an empty history.
 */
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { writeFileAtomic } from '../../secrets/atomic-file'

export const ATTEMPT_STATES = ['built', 'signed', 'broadcast', 'recorded', 'cancelled'] as const
export type AttemptState = (typeof ATTEMPT_STATES)[number]
/** States in which the attempt still owns its payments (everything but cancelled). */
const HOLDING: ReadonlySet<AttemptState> = new Set(['built', 'signed', 'broadcast', 'recorded'])

const lineSchema = z.strictObject({
  localId: z.string().min(1),
  payee: z.string().nullable(),
  cents: z.number().int().positive(),
  /** decimal string (JSON has no BigInt) */
  units: z.string().regex(/^[1-9]\d*$/),
  address: z.string().min(1),
  expiration: z.string().nullable(),
  vout: z.number().int().min(0),
})
export type AttemptLine = z.infer<typeof lineSchema>

export const attemptSchema = z.strictObject({
  id: z.string().min(1),
  profile: z.string().min(1),
  createdAt: z.string().min(1),
  updatedAt: z.string().min(1),
  operator: z.string(),
  state: z.enum(ATTEMPT_STATES),
  lines: z.array(lineSchema).min(1),
  /** the transaction id, fixed at build time (signatures do not change it) */
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  feeUnits: z.string().regex(/^\d+$/),
  /**
   * The PSET as built (base64). Dropped (null), with `pset`, once the attempt is signed (the final transaction is
   * all that is left to use), and with `txHex` once it is recorded or cancelled: a 200-payment PSET is ~1.2 MB and
   * the file is rewritten on every step.
   */
  built: z.string().min(1).nullable(),
  /** the PSET with every signature imported so far (base64) */
  pset: z.string().min(1).nullable(),
  /** the finalized transaction, once fully signed */
  txHex: z
    .string()
    .regex(/^[0-9a-f]*$/)
    .nullable(),
  /** why the last broadcast was refused, as the server said it (shown under "Detalhes técnicos" only) */
  lastError: z.string().max(500).nullable(),
})
export type Attempt = z.infer<typeof attemptSchema>

const fileSchema = z.strictObject({ version: z.literal(1), attempts: z.array(attemptSchema) })

export class AttemptsUnreadable extends Error {
  constructor(readonly file: string) {
    super(`funding attempts file does not read back: ${file}`)
    this.name = 'AttemptsUnreadable'
  }
}

export class PayAttempts {
  constructor(private readonly file: string) {}

  all(): Attempt[] {
    if (!existsSync(this.file)) return []
    let parsed
    try {
      parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')))
    } catch {
      throw new AttemptsUnreadable(this.file)
    }
    if (!parsed.success) throw new AttemptsUnreadable(this.file)
    return parsed.data.attempts
  }

  get(id: string): Attempt | undefined {
    return this.all().find((a) => a.id === id)
  }

  /** The attempt holding `localId`, if any. */
  holding(localId: string): Attempt | undefined {
    return this.all().find((a) => HOLDING.has(a.state) && a.lines.some((l) => l.localId === localId))
  }

  /** Inserts or replaces by id, atomically (a crash leaves the file before or after, never torn). */
  put(a: Attempt): void {
    const checked = attemptSchema.parse(a)
    const rest = this.all().filter((x) => x.id !== a.id)
    writeFileAtomic(this.file, JSON.stringify({ version: 1, attempts: [...rest, checked] }, null, 1))
  }
}
