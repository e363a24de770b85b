/**
 * IPC channels of issue #14 part A: the payee book, its CSV in and out.
 * Spread into `channels` (contract.ts) with one line; same rules as every channel there (inputs validated in
 * main, outputs parsed before they leave). This file imports nothing from contract.ts, which imports it.
 */
import { z } from 'zod'
import { folderTokenSchema } from './folder-token'
import { payeeInputSchema, payeeSchema } from './payee'

const payeeId = z.string().min(1).max(100)
const updatedAt = z.string().min(1).max(40)

export const payeePageSchema = z.object({ rows: z.array(payeeSchema), total: z.number().int() })

export const payeeImportResultSchema = z.object({
  fileName: z.string(),
  imported: z.array(z.object({ line: z.number().int(), id: z.string(), name: z.string() })),
  rejected: z.array(
    z.object({
      line: z.number().int(),
      name: z.string(),
      /** `field`: the form's field path ("taxNumber", "pixKeys.0.key") or "_row"; `code`: shared/payee.ts. */
      problems: z.array(z.object({ field: z.string(), code: z.string() })),
    }),
  ),
  ignoredColumns: z.array(z.string()),
})
export type PayeeImportResultView = z.infer<typeof payeeImportResultSchema>

export const payeesChannels = {
  /** Search by name, CPF/CNPJ (masked or not), EUID or Pix key; empty text lists the book by name. */
  'payees:list': {
    input: z.strictObject({
      text: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).optional(),
    }),
    output: payeePageSchema,
  },
  'payees:get': { input: z.strictObject({ id: payeeId }), output: payeeSchema },
  'payees:create': { input: payeeInputSchema, output: payeeSchema },
  /**
   * `expectedUpdatedAt`: the entry's `updatedAt` as the form loaded it. A team's book refuses the write with
   * `payee_changed` when another desk changed the entry since (nothing is lost); a desk's own book ignores it.
   */
  'payees:update': {
    input: z.strictObject({ id: payeeId, payee: payeeInputSchema, expectedUpdatedAt: updatedAt.optional() }),
    output: payeeSchema,
  },
  'payees:remove': {
    input: z.strictObject({ id: payeeId, expectedUpdatedAt: updatedAt.optional() }),
    output: z.null(),
  },
  /** Writes the whole book as CSV into a folder main's own dialog handed out. */
  'payees:export': {
    input: z.strictObject({
      folder: folderTokenSchema,
      locale: z.enum(['pt-BR', 'en']).optional(),
      delimiter: z.enum([';', ',']).optional(),
    }),
    output: z.object({ fileName: z.string(), folder: z.string(), count: z.number().int() }),
  },
  /** Main shows the OS file dialog, reads the chosen CSV as hostile, keeps the valid rows. Null: cancelled. */
  'payees:import': { input: z.undefined(), output: payeeImportResultSchema.nullable() },
} as const
