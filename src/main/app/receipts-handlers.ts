/**
 * The channels of receipts (issue #14; a team's since issue #16): their state, their bytes (hash checked again on
 * every read), and saving or printing them from main. The renderer names a record; it never sends or receives a
 * path. On a team profile they are the team ledger's receipts, this computer's otherwise: one service
 * (receipts/service.ts) over either engine's receipt store (engine.ts receiptsOf).
 */
import type { receiptsChannels } from '../../shared/channels-receipts'
import type { HandlersOf } from '../ipc/router'
import { writeFileAtomic } from '../secrets/atomic-file'
import type { ReceiptsDeps } from './deps'
import { engineOf, receiptsOf } from './engine'
import { AppError } from './errors'

export function receiptsHandlers(deps: ReceiptsDeps): HandlersOf<typeof receiptsChannels> {
  const stored = async (localId: string) => {
    const b = await receiptsOf(engineOf(deps.runtime()), deps.receipts).bytes(localId)
    if (b === null) throw new AppError('receipt_unavailable', 'This record has no intact local receipt.')
    return b
  }
  return {
    'receipts:get': async ({ localId }) => {
      const rt = deps.runtime()
      const engine = engineOf(rt)
      const receipts = receiptsOf(engine, deps.receipts)
      const view = await receipts.view(localId)
      if (view.state !== 'none') return view
      // A record paid before receipts were kept: registered when it is looked at, then fetched in the background.
      // This computer's answers with the registered row; a team's answers now and registers behind (as before).
      if (engine.kind === 'postgres') {
        const record = await rt.withdrawals.store.get(localId)
        if (record) void receipts.notice(record)
        return view
      }
      const record = deps.ledger.get(localId)
      if (record) await receipts.notice(record)
      return receipts.view(localId)
    },
    'receipts:bytes': async ({ localId }) => {
      const b = await stored(localId)
      return { mediaType: b.mediaType, sha256: b.sha256, base64: b.bytes.toString('base64') }
    },
    'receipts:save': async ({ localId }) => {
      const b = await stored(localId)
      const choose = deps.chooseSavePath
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
      const print = deps.printDocument
      if (!print) throw new AppError('not_supported', 'Printing is not available here.')
      return { printed: await print(b.bytes, b.mediaType) }
    },
  }
}
