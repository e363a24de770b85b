/**
 * IPC of what main does with the OS for the renderer: its own folder dialog, whose answer stays in main behind a
 * one-use token, and opening an allowed https URL in the browser. Spread into `channels` (contract.ts); imports
 * nothing from contract.ts.
 */
import { z } from 'zod'

export const FOLDER_PURPOSES = ['export', 'review'] as const
export const folderChoiceSchema = z.object({
  token: z.string(),
  /** What the user picked, to show; sending it back names nothing. */
  folder: z.string(),
})

export const shellChannels = {
  /** Main's own folder dialog; the answer stays in main behind a one-use token. Null: cancelled. */
  'dialog:chooseFolder': {
    input: z.strictObject({ purpose: z.enum(FOLDER_PURPOSES) }),
    output: folderChoiceSchema.nullable(),
  },
  /** `localId` names the record whose receipt URL this is; the Liquid explorer needs none. */
  'shell:openExternal': {
    input: z.strictObject({ url: z.string().max(2048), localId: z.string().max(100).optional() }),
    output: z.object({ opened: z.boolean() }),
  },
} as const
