/**
 * Events of the desktop notifications: the operator clicked one, and the renderer opens what it was about. Events
 * only (no channel: notifications are raised by main). Spread into `events` (contract.ts).
 */
import { z } from 'zod'

export const notificationsEvents = {
  /**
   * The operator clicked a desktop notification about an approval (issue #16): open the Aprovações page. The id
   * is the approval's; the page lists the queue as main has it.
   */
  'notification:openApprovals': z.object({ id: z.string() }),
  /** The operator clicked a desktop notification about a run's approval: open that run's screen. */
  'notification:openRun': z.object({ runId: z.string() }),
} as const
