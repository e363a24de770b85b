/**
 * The local receipt of a payout, shown offline from the bytes main kept (never a URL or a path). HTML goes into
 * an iframe with an empty `sandbox` (no scripts, no same-origin, no forms, no popups) through `srcdoc`, led by a
 * CSP meta that allows no network at all; it also inherits the app's own CSP (connect-src 'none'). A PDF cannot
 * be embedded under the app's CSP (object-src and frame-src 'none'), so it is offered to save or print.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ReceiptViewDto } from '../../../../shared/channels-receipts'
import { call, useEvent } from '../../ipc'
import { DateTime } from '../format'

export const RECEIPT_FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

export function receiptSrcDoc(html: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${RECEIPT_FRAME_CSP}">${html}`
}

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

interface Loaded {
  view: ReceiptViewDto
  html: string | null
}

async function loadReceipt(localId: string): Promise<Loaded | null> {
  const r = await call('receipts:get', { localId })
  if (!r.ok) return null
  if (r.data.state !== 'stored' || r.data.mediaType !== 'text/html') return { view: r.data, html: null }
  const b = await call('receipts:bytes', { localId })
  return { view: r.data, html: b.ok ? new TextDecoder().decode(decodeBase64(b.data.base64)) : null }
}

const kib = (n: number): string => `${Math.max(1, Math.round(n / 1024))} KiB`

export function ReceiptViewer({ localId }: { localId: string }): React.JSX.Element | null {
  const { t } = useTranslation('receipts')
  const [shown, setShown] = useState<Loaded | null>(null)
  const [version, setVersion] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  // The receipt itself opens on request: shown at once it was ~400 px of the detail page (issue #26 density).
  const [open, setOpen] = useState(false)

  useEffect(() => {
    let live = true
    void loadReceipt(localId).then((l) => {
      if (live) setShown(l)
    })
    return () => {
      live = false
    }
  }, [localId, version])
  useEvent('receipt:changed', (p) => {
    if (p.localId === localId) setVersion((v) => v + 1)
  })

  const view = shown?.view ?? null
  const html = shown?.html ?? null
  if (view === null || view.state === 'none') return null

  const act = async (what: 'receipts:save' | 'receipts:print'): Promise<void> => {
    setMessage(null)
    const r = await call(what, { localId })
    if (!r.ok) return setMessage(t('failed'))
    if (what === 'receipts:save' && 'saved' in r.data && r.data.saved) setMessage(t('saved'))
  }

  return (
    <section className="card" aria-labelledby={`receipt-${localId}`} data-testid="receipt-viewer">
      <h3 id={`receipt-${localId}`}>{t('title')}</h3>
      {view.state !== 'stored' && view.state !== 'damaged' ? (
        <p role="status" data-testid="receipt-missing">
          {t(`state.${view.state}`, { attempts: view.attempts })}
        </p>
      ) : view.state === 'damaged' ? (
        <p role="alert" data-testid="receipt-damaged">
          {t(`state.damaged_${view.reason}`)}
        </p>
      ) : view.state === 'stored' ? (
        <>
          <p className="muted" data-testid="receipt-facts">
            {t('fetchedAt')} <DateTime iso={view.fetchedAt} /> ·{' '}
            {t('stored', { size: kib(view.size), hash: view.sha256.slice(0, 16) })}
          </p>
          {view.mediaType === 'application/pdf' && <p>{t('pdfNote')}</p>}
          <p>
            {view.mediaType === 'text/html' && html !== null && (
              <>
                <button
                  type="button"
                  className="btn"
                  aria-expanded={open}
                  aria-controls={open ? `receipt-${localId}-frame` : undefined}
                  data-testid="receipt-toggle"
                  onClick={() => setOpen((o) => !o)}
                >
                  {t(open ? 'hide' : 'show')}
                </button>{' '}
              </>
            )}
            <button type="button" className="btn" onClick={() => void act('receipts:save')}>
              {t('save')}
            </button>{' '}
            <button type="button" className="btn" onClick={() => void act('receipts:print')}>
              {t('print')}
            </button>
          </p>
          {view.mediaType === 'text/html' && html !== null && open && (
            <iframe
              id={`receipt-${localId}-frame`}
              title={t('frameTitle')}
              sandbox=""
              srcDoc={receiptSrcDoc(html)}
              referrerPolicy="no-referrer"
              className="receipt-frame"
              data-testid="receipt-frame"
              style={{ width: '100%', minHeight: '24rem', border: '1px solid #ccc', background: '#fff' }}
            />
          )}
          {message && <p role="status">{message}</p>}
        </>
      ) : null}
    </section>
  )
}
