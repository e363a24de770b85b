/** A run channel's failure in words: the run's own codes from the `runs` namespace, anything else as ErrorNotice does. */
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { ErrorNotice } from '../ErrorNotice'

export function RunErrorNotice({ error }: { error: IpcError }): React.JSX.Element {
  const { i18n } = useTranslation('runs')
  const key = `runs:errors.${error.code}`
  if (!error.userMessage && i18n.exists(key)) {
    const pt = i18n.getFixedT('pt-BR')(key)
    const en = i18n.getFixedT('en')(key)
    return <ErrorNotice error={{ ...error, userMessage: { 'pt-BR': pt, en } }} />
  }
  return <ErrorNotice error={error} />
}
