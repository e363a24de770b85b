/**
 * IPC of the treasury wallet (issue #27): views only. The descriptor goes in (to be checked and kept in the
 * vault) and never comes back out; amounts cross as integer cents of R$ (DePix, 1 DePix = R$ 1,00) and as
 * integer-string units (exact on-chain amounts: DePix and L-BTC have 8 decimals).
 */
import { z } from 'zod'

const units = z.string().regex(/^-?\d{1,30}$/)
const cents = z.number().int().refine(Number.isSafeInteger)

export const WALLET_SCAN_FAILURES = [
  'unreachable',
  'timeout',
  'too_large',
  'budget',
  'foreign_url',
  'bad_response',
] as const

export const walletMovementSchema = z.object({
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  /** null while unconfirmed */
  height: z.number().int().nullable(),
  /** ISO time of its block; null while unconfirmed */
  at: z.string().nullable(),
  /** received minus sent by the wallet; cents truncated toward zero, units exact */
  depixCents: cents,
  depixUnits: units,
  lbtcUnits: units,
  feeUnits: units,
  /** what it was, from the ledger: a payment's funding, a top-up's delivery, a refund, or none of these */
  meaning: z.enum(['payment', 'topup', 'refund', 'other']),
  /** the payment's or top-up's local id when matched */
  localId: z.string().nullable(),
  /** an unmatched movement's label, from the ledger's audit log: who wrote it and when */
  label: z.object({ text: z.string().max(120), by: z.string(), at: z.string() }).nullable(),
})
export type WalletMovementDto = z.infer<typeof walletMovementSchema>

export const walletViewSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('not_configured') }),
  z.object({
    state: z.literal('ready'),
    multisig: z.boolean(),
    depix: z.object({
      confirmedCents: cents,
      pendingCents: cents,
      confirmedUnits: units,
      pendingUnits: units,
    }),
    lbtc: z.object({ confirmedUnits: units, pendingUnits: units }),
    /** ISO time of the last scan that succeeded; null before the first */
    lastScanAt: z.string().nullable(),
    /** why the most recent scan failed: the balance shown is then the last-known one */
    lastFailure: z.enum(WALLET_SCAN_FAILURES).nullable(),
    tipHeight: z.number().int().nullable(),
    /** newest first, at most 200 */
    movements: z.array(walletMovementSchema).max(200),
    /** base of the explorer's transaction links for this network, or null (sandbox) */
    explorerTxUrl: z.string().nullable(),
  }),
])
export type WalletViewDto = z.infer<typeof walletViewSchema>

const none = z.strictObject({})

export const walletChannels = {
  /** The last-known view, from LWK's persisted state: no network. */
  'wallet:get': { input: none, output: walletViewSchema },
  /** Scans now (at most once every few seconds; a scan already running is joined), then the view. */
  'wallet:scan': { input: none, output: walletViewSchema },
  /** Checks and stores the watch-only descriptor of this profile's treasury wallet. */
  'wallet:setDescriptor': {
    input: z.strictObject({ descriptor: z.string().max(10_000) }),
    output: walletViewSchema,
  },
  /**
   * A receive address of the treasury wallet for a refund or a top-up delivery (per the profile's address policy:
   * fresh each time, or one per profile); null when the profile has no wallet.
   */
  'wallet:proposeAddress': {
    input: none,
    output: z.object({ address: z.string().max(200), index: z.number().int().min(0) }).nullable(),
  },
  /** Whether an address typed by hand is one of the treasury wallet's ("unknown" when there is no wallet). */
  'wallet:checkAddress': {
    input: z.strictObject({ address: z.string().max(200) }),
    output: z.object({
      owner: z.enum(['treasury', 'external', 'unknown']),
      index: z.number().int().min(0).nullable(),
    }),
  },
  /** Labels an unmatched movement (an audited act: who, when, what); the view with the label. */
  'wallet:label': {
    input: z.strictObject({ txid: z.string().regex(/^[0-9a-f]{64}$/), label: z.string().max(1_000) }),
    output: walletViewSchema,
  },
  /** Forgets this profile's descriptor and the wallet state kept on this computer. */
  'wallet:clear': { input: none, output: walletViewSchema },
} as const

export const walletEvents = {
  /** A scan finished (or failed): the Caixa page and the Hoje card read the view again. */
  'wallet:changed': z.object({ profileId: z.string() }),
} as const

/**
 * L-BTC kept for network fees: a Liquid transaction funding payments costs a few hundred units at 0.1 sat/vB, so
 * 1,000 units per funding is generous; Caixa warns when the wallet holds less than the next
 * `LBTC_FEE_FUNDINGS` fundings need.
 */
export const LBTC_FEE_UNITS_PER_FUNDING = 1_000n
export const LBTC_FEE_FUNDINGS = 20
