/**
 * A payment run waiting for another analyst's approval, as the Aprovações queue lists it (issue #16). The run is
 * approved on its own screen (runs:approve), where its rows are; the queue only says that it waits and opens it.
 * Amounts only: a row's Pix key or payee never reaches the queue.
 */
import { z } from 'zod'

const cents = z.number().int().nonnegative().refine(Number.isSafeInteger)

export const runApprovalItemSchema = z.object({
  runId: z.string(),
  /** The name of the file it was imported from. */
  name: z.string(),
  /** Rows that will be paid (not dropped). */
  rows: z.number().int().nonnegative(),
  /** What arrives by Pix, in cents of R$, over those rows. */
  payoutCents: cents,
  /** The DePix to send for them, in cents. */
  depositCents: cents,
  requestedBy: z.string(),
  requestedAt: z.string(),
  /** Asked for by this desk's role. */
  mine: z.boolean(),
  /** This desk's role may approve it: neither the role that asked nor the one that imported the run. */
  mayApprove: z.boolean(),
})
export type RunApprovalItem = z.infer<typeof runApprovalItemSchema>
