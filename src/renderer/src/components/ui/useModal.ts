/**
 * A native `<dialog>` shown modal for as long as its component is mounted. When it goes without a decision
 * (Escape, Cancelar) the focus returns to the control that opened it: the dialog has already left the page when
 * React closes it, so the browser's own return of focus does not happen. A decision that removed the opener
 * leaves the focus to whatever replaced it.
 */
import { useEffect, type RefObject } from 'react'

export function useModal(ref: RefObject<HTMLDialogElement | null>): void {
  useEffect(() => {
    const d = ref.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (d && !d.open) d.showModal()
    return () => {
      d?.close()
      if (opener?.isConnected) opener.focus()
    }
  }, [ref])
}
