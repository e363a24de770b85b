/**
 * IPC of paying from the wallet (issue #28). Amounts cross as integer cents (R$) and integer-string units
 * (8 decimals). The PSET crosses only where the operator carries it to or from a signer (export, import); the
 * finalized transaction and the sandbox mnemonic never do.
 */
import { z } from 'zod'

const units = z.string().regex(/^-?\d{1,30}$/)
const cents = z.number().int().refine(Number.isSafeInteger)
const id = z.string().min(1).max(100)
/** A base64 PSET: a 200-output one is about 1.5 MB of text. */
const psetText = z.string().min(1).max(8_000_000)

export const PAY_ATTEMPT_STATES = ['built', 'signed', 'broadcast', 'recorded', 'cancelled'] as const

export const payLineSchema = z.object({
  localId: id,
  payee: z.string().nullable(),
  cents,
  depixUnits: units,
  address: z.string(),
  expiration: z.string().nullable(),
  vout: z.number().int().min(0),
})

export const payAttemptSchema = z.object({
  id,
  state: z.enum(PAY_ATTEMPT_STATES),
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
  operator: z.string(),
  lines: z.array(payLineSchema),
  totalCents: cents,
  totalUnits: units,
  feeUnits: units,
  /** the broadcast refusal kept for "Detalhes técnicos" */
  lastError: z.string().nullable(),
})
export type PayAttemptDto = z.infer<typeof payAttemptSchema>

/** The review right after building: the attempt plus the balance after it. */
export const payReviewSchema = z.object({
  attempt: payAttemptSchema,
  depixAfterUnits: units,
  lbtcAfterUnits: units,
})
export type PayReviewDto = z.infer<typeof payReviewSchema>

const byId = z.strictObject({ id })

export const walletPayEvents = {
  /**
   * How far a build is: `status` while each payment is asked again (`GET /withdraw-status`, at the account's rate
   * limit), `building` while LWK builds and blinds the transaction (done = 0 until it is built).
   */
  'walletPay:progress': z.object({
    phase: z.enum(['status', 'building']),
    done: z.number().int().min(0),
    total: z.number().int().min(1),
  }),
} as const

export const walletPayChannels = {
  /** Re-reads each payment from the service, builds one PSET and reviews it. */
  'walletPay:build': {
    input: z.strictObject({
      selected: z
        .array(
          z.strictObject({ localId: id, address: z.string().max(200).optional(), cents: cents.optional() }),
        )
        .min(1)
        .max(500),
    }),
    output: payReviewSchema,
  },
  /** Every funding attempt of this profile, newest first. */
  'walletPay:list': { input: z.strictObject({}), output: z.array(payAttemptSchema) },
  /**
   * The PSET to hand an external signer (base64), the profile's network, and the key fingerprints that still have
   * to sign it (LWK's `PsetDetails.fingerprintsMissing`: 4-byte key ids the PSET itself carries, not secrets) —
   * what "Assinar com a Jade (USB)" compares with the Jade's own before asking it to sign.
   */
  'walletPay:export': {
    input: byId,
    output: z.object({
      pset: psetText,
      network: z.enum(['liquid', 'testnet', 'regtest']),
      signers: z.array(z.string().regex(/^[0-9a-f]{8}$/)).max(20),
    }),
  },
  /**
   * Unlocking a Jade: one step of its PIN-server handshake, posted by main to Blockstream's PIN server on behalf of
   * LWK in the renderer (src/main/wallet/pay/pin-server.ts). `body` is the Jade's opaque JSON; the answer's status
   * and text go back to the Jade unread.
   */
  'walletPay:jadePinServer': {
    input: z.strictObject({ url: z.string().min(1).max(2_048), body: z.string().max(65_536) }),
    output: z.object({ status: z.number().int().min(100).max(599), body: z.string().max(65_536) }),
  },
  /** A signer's PSET back: checked to be the one built; `missing` > 0 while a multisig needs more signatures. */
  'walletPay:import': {
    input: z.strictObject({ id, pset: psetText }),
    output: z.object({ attempt: payAttemptSchema, missing: z.number().int().min(0) }),
  },
  /** Saves the PSET for a signer to a file the operator chooses (main's save dialog); false when cancelled. */
  'walletPay:savePset': { input: byId, output: z.object({ saved: z.boolean() }) },
  /**
   * Loads a signer's PSET from a file the operator chooses (main's open dialog) and imports it like
   * `walletPay:import`; null when the dialog was cancelled.
   */
  'walletPay:loadSigned': {
    input: byId,
    output: z.object({ attempt: payAttemptSchema, missing: z.number().int().min(0) }).nullable(),
  },
  /** The PSET as a QR code (SVG) when its base64 fits in one; otherwise how long it is against the limit. */
  'walletPay:qr': {
    input: byId,
    output: z.union([
      z.object({ fits: z.literal(true), svg: z.string().max(2_000_000), chars: z.number().int() }),
      z.object({ fits: z.literal(false), chars: z.number().int(), maxChars: z.number().int() }),
    ]),
  },
  /** Sandbox profile only: signs with the documented sandbox treasury mnemonic. */
  'walletPay:signSandbox': {
    input: byId,
    output: z.object({ attempt: payAttemptSchema, missing: z.number().int().min(0) }),
  },
  'walletPay:broadcast': { input: byId, output: payAttemptSchema },
  'walletPay:cancel': { input: byId, output: payAttemptSchema },
} as const
