/**
 * The team settings a desk follows live: `team_settings` NOTIFYs `depix_settings` when the owner changes the
 * approval threshold (migration-desk-import.ts), and the leadership connection (leader.ts) reads the current value
 * each time it (re)connects, so a change made while a desk was cut off is not missed.
 */
import { z } from 'zod'
import type { Queryable } from './queryable'

export interface TeamSettingsEvent {
  /** Cents above which a payment needs another analyst's approval; null: approval off. */
  approvalAboveCents: number | null
}

const settingsSchema = z.object({
  approvalAboveCents: z.number().int().nonnegative().refine(Number.isSafeInteger).nullable(),
})

/** A payload that does not parse is dropped (the next connect's read, or the next change, corrects it). */
export function parseSettings(payload: string | undefined): TeamSettingsEvent | null {
  try {
    const r = settingsSchema.safeParse(JSON.parse(payload ?? ''))
    return r.success ? r.data : null
  } catch {
    return null
  }
}

export async function readSettings(c: Queryable): Promise<TeamSettingsEvent | null> {
  const r = await c.query('SELECT approval_above_cents FROM team_settings WHERE id = 1')
  const v: unknown = r.rows[0]?.approval_above_cents
  // bigint arrives as text from node-postgres.
  return (
    settingsSchema.safeParse({ approvalAboveCents: v === null || v === undefined ? null : Number(v) }).data ??
    null
  )
}
