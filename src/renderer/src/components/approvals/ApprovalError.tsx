/** A refusal of an approval call: our sentence for the code; the raw code only under "Detalhes técnicos". */
import type { IpcError } from '../../../../shared/contract'
import { ErrorNotice } from '../ErrorNotice'
import { TechnicalDetails } from '../layout/TechnicalDetails'
import { withAreaMessage } from '../withdrawal-form/error-text'

export function ApprovalError({ error }: { error: IpcError }): React.JSX.Element {
  return (
    <div data-testid="approval-error" data-error-code={error.code}>
      <ErrorNotice error={withAreaMessage(error, 'approvals')} />
      <TechnicalDetails testId="approval-error-details">
        <p>
          <code>{error.code}</code>
        </p>
      </TechnicalDetails>
    </div>
  )
}
