/**
 * The record kinds, named once. Every layer that describes a kind — the ledger's `KindRules`, the journal's
 * entries, the tracker's `TrackerKind`, the export's `RecordsKind`, the totals' meaning table — is keyed by this
 * id, so a kind added here is a type error everywhere a layer has not described it yet. It lives in shared/
 * because it is the lowest layer all of them (and IPC schemas) may import.
 *
 * Where a kind's id is absent from something stored or exported (a journal entry, a manifest, an IPC request made
 * before deposits existed) it is a withdrawal's: that default stays with each reader, which knows its own history.
 */
import { z } from 'zod'

export const RECORD_KINDS = ['withdrawal', 'deposit'] as const
export type RecordKindId = (typeof RECORD_KINDS)[number]

/** A kind's id at a trust boundary (IPC, a file read back). */
export const recordKindSchema = z.enum(RECORD_KINDS)
