/**
 * ErrorNotice translates the codes the `errors` namespace knows. Codes specific to one area (e.g. the
 * withdrawal service's `invalid_draft`) get that area's sentence here, passed as the error's `userMessage`.
 */
import type { IpcError } from '../../../../shared/contract'
import i18next from '../../i18n'

export function withAreaMessage(
  error: IpcError,
  ns: 'withdrawal' | 'sandbox' | 'funding' | 'approvals',
): IpcError {
  if (error.userMessage || i18next.exists(`errors:codes.${error.code}`)) return error
  const key = `${ns}:ipcCodes.${error.code}`
  if (!i18next.exists(key)) return error
  return {
    ...error,
    userMessage: { 'pt-BR': i18next.getFixedT('pt-BR')(key), en: i18next.getFixedT('en')(key) },
  }
}
