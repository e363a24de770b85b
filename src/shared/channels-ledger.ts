/**
 * IPC of this computer's ledger (Settings, the integrity banner): its audit-trail check, in the background from
 * start-up, and its backups. Spread into `channels` and `events` (contract.ts); imports nothing from contract.ts.
 */
import { z } from 'zod'

const none = z.undefined()

/** Where the audit-trail check stands; `reason` is our own English text (the renderer shows its own words). */
export const ledgerIntegritySchema = z.object({
  state: z.enum(['checking', 'ok', 'broken', 'error']),
  checkedAt: z.string().nullable(),
  rows: z.number().int().optional(),
  brokenAt: z.number().int().optional(),
  reason: z.string().optional(),
  /** Which ledger: absent for this computer's; `team` for the team ledger on a server (issue #16). */
  ledger: z.literal('team').optional(),
})
export type LedgerIntegrity = z.infer<typeof ledgerIntegritySchema>

export const ledgerBackupSchema = z.object({
  name: z.string(),
  createdAt: z.string(),
  reason: z.enum(['migration', 'daily', 'restore', 'manual']),
  sizeBytes: z.number().int().nonnegative(),
})
export type LedgerBackup = z.infer<typeof ledgerBackupSchema>

export const ledgerChannels = {
  /** The ledger's audit-trail check (start-up, in the background) and its backups (Settings). */
  'ledger:integrity': { input: none, output: ledgerIntegritySchema },
  'ledger:backups': { input: none, output: z.array(ledgerBackupSchema) },
  /** Takes a backup of the current ledger first; `confirm` is the operator's explicit yes. */
  'ledger:restore': {
    input: z.strictObject({
      name: z.string().regex(/^ledger-\d{8}T\d{9}Z-[a-z]+\.sqlite$/),
      confirm: z.literal(true),
    }),
    output: z.object({ restored: z.string(), safetyBackup: z.string() }),
  },
} as const

export const ledgerEvents = {
  'ledger:integrity': ledgerIntegritySchema,
} as const
