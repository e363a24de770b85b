/** Builds a RunIssue from a stable code and its pt-BR/en text (run messages, or the draft schema's). */
import { runMessages, type RunColumn, type RunIssue, type RunMessageCode } from '../../../shared/run'
import { withdrawalMessages, type WithdrawalMessageCode } from '../../../shared/withdrawal'

export function issue(
  line: number,
  column: string | null,
  field: RunColumn | null,
  code: RunMessageCode | WithdrawalMessageCode,
): RunIssue {
  const message = Object.hasOwn(runMessages, code)
    ? runMessages[code as RunMessageCode]
    : (withdrawalMessages[code as WithdrawalMessageCode] ?? withdrawalMessages.invalid_value)
  return { line, column, field, code, message: { 'pt-BR': message['pt-BR'], en: message.en } }
}
