/**
 * IPC of the Sandbox profile's tools for withdrawals: fund a payment's deposit address, settle its payout, and
 * put the embedded service in maintenance. Main refuses them on any other profile. Spread into `channels`
 * (contract.ts); imports nothing from contract.ts.
 */
import { z } from 'zod'
import { withdrawalRecordSchema } from './withdrawal-record'

export const sandboxChannels = {
  'sandbox:fund': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      mode: z.enum(['exact', 'over_tolerance', 'under_tolerance']),
    }),
    output: withdrawalRecordSchema,
  },
  'sandbox:settle': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      outcome: z.enum(['sent', 'invalid_pix_key', 'key_tax_mismatch', 'processor_failure']),
    }),
    output: withdrawalRecordSchema,
  },
  'sandbox:maintenance': {
    input: z.strictObject({ on: z.boolean() }),
    output: z.object({ on: z.boolean() }),
  },
} as const
