/**
 * The channels of local receipts (issue #14): their state, their bytes (hash checked again on every read), and
 * saving or printing them from main. The renderer names a record; it never sends or receives a path.
 */
import type { Handlers } from '../ipc/router'
import { writeFileAtomic } from '../secrets/atomic-file'
import type { AppState } from './context'
import { AppError } from './errors'

type ReceiptHandlers = Pick<Handlers, 'receipts:get' | 'receipts:bytes' | 'receipts:save' | 'receipts:print'>

export function receiptsHandlers(state: AppState): ReceiptHandlers {
  const stored = (localId: string) => {
    const b = state.receipts.bytes(localId)
    if (b === null) throw new AppError('receipt_unavailable', 'This record has no intact local receipt.')
    return b
  }
  return {
    'receipts:get': ({ localId }) => {
      const view = state.receipts.view(localId)
      if (view.state !== 'none') return view
      // A record paid before receipts were kept: registered when it is looked at, then fetched in the background.
      const record = state.ledger.get(localId)
      if (record) state.receipts.notice(record)
      return state.receipts.view(localId)
    },
    'receipts:bytes': ({ localId }) => {
      const b = stored(localId)
      return { mediaType: b.mediaType, sha256: b.sha256, base64: b.bytes.toString('base64') }
    },
    'receipts:save': async ({ localId }) => {
      const b = stored(localId)
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
      const b = stored(localId)
      const print = state.o.ports.printDocument
      if (!print) throw new AppError('not_supported', 'Printing is not available here.')
      return { printed: await print(b.bytes, b.mediaType) }
    },
  }
}
