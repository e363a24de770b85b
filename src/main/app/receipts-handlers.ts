/**
 * The channels of receipts (issue #14; a team's since issue #16): their state, their bytes (hash checked again on
 * every read), and saving or printing them from main. The renderer names a record; it never sends or receives a
 * path. On a team profile they are the team ledger's receipts (receipts/team.ts), this computer's otherwise.
 */
import type { Handlers } from '../ipc/router'
import { writeFileAtomic } from '../secrets/atomic-file'
import type { AppState } from './context'
import { AppError } from './errors'
import { receiptsOf } from './team-books'

type ReceiptHandlers = Pick<Handlers, 'receipts:get' | 'receipts:bytes' | 'receipts:save' | 'receipts:print'>

export function receiptsHandlers(state: AppState): ReceiptHandlers {
  const stored = async (localId: string) => {
    const b = await receiptsOf(state.runtime(), state.receipts).bytes(localId)
    if (b === null) throw new AppError('receipt_unavailable', 'This record has no intact local receipt.')
    return b
  }
  return {
    'receipts:get': async ({ localId }) => {
      const rt = state.runtime()
      const receipts = receiptsOf(rt, state.receipts)
      const view = await receipts.view(localId)
      if (view.state !== 'none') return view
      // A record paid before receipts were kept: registered when it is looked at, then fetched in the background.
      if (rt.teamBooks) {
        const record = await rt.withdrawals.store.get(localId)
        if (record) rt.teamBooks.receipts.notice(record)
        return view
      }
      const record = state.ledger.get(localId)
      if (record) state.receipts.notice(record)
      return state.receipts.view(localId)
    },
    'receipts:bytes': async ({ localId }) => {
      const b = await stored(localId)
      return { mediaType: b.mediaType, sha256: b.sha256, base64: b.bytes.toString('base64') }
    },
    'receipts:save': async ({ localId }) => {
      const b = await stored(localId)
      const choose = state.o.ports.chooseSavePath
      if (!choose) throw new AppError('not_supported', 'Saving is not available here.')
      const ext = b.mediaType === 'application/pdf' ? 'pdf' : 'html'
      const target = await choose(`comprovante-${localId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 40)}.${ext}`)
      if (target === null) return { saved: false }
      // Beside the target and renamed over it: a crash never leaves half a receipt under the chosen name.
      writeFileAtomic(target, b.bytes)
      return { saved: true }
    },
    'receipts:print': async ({ localId }) => {
      const b = await stored(localId)
      const print = state.o.ports.printDocument
      if (!print) throw new AppError('not_supported', 'Printing is not available here.')
      return { printed: await print(b.bytes, b.mediaType) }
    },
  }
}
