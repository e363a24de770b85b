/**
 * ErrorNotice knows the `errors` namespace; the payee book's own codes (a document already in the book, a file
 * refused on import…) get their sentence from the `payees` namespace here, as the error's `userMessage`.
 */
import type { IpcError } from '../../../../shared/contract'
import i18next from '../../i18n'

export function withPayeesMessage(error: IpcError): IpcError {
  if (error.userMessage) return error
  const key = `payees:ipcCodes.${error.code}`
  if (!i18next.exists(key)) return error
  return {
    ...error,
    userMessage: { 'pt-BR': i18next.getFixedT('pt-BR')(key), en: i18next.getFixedT('en')(key) },
  }
}
