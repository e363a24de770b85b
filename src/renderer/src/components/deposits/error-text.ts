/**
 * A deposit channel's error with this area's sentence when the `errors` namespace has none (the same rule as
 * withAreaMessage for withdrawals): main's own pt-BR/en `userMessage` first, then errors:codes, then deposits:ipcCodes.
 */
import type { IpcError } from '../../../../shared/contract'
import i18next from '../../i18n'

export function depositError(error: IpcError): IpcError {
  if (error.userMessage) return error
  const key = `deposits:ipcCodes.${error.code}`
  if (!i18next.exists(key)) return error
  return {
    ...error,
    userMessage: { 'pt-BR': i18next.getFixedT('pt-BR')(key), en: i18next.getFixedT('en')(key) },
  }
}
