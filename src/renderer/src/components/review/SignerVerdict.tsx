/**
 * The verdict of an export that passed verification: green only when its signer is the key the reviewer expected
 * (typed in, or this computer's own key, prefilled and said so). Otherwise amber, "signed by an unknown key": a
 * valid signature alone proves only that someone signed it. Mount it with a new key for each review opened.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError, ReviewSigner, ReviewSummary } from '../../../../shared/contract'
import { call } from '../../ipc'
import { CopyButton } from '../CopyButton'
import { ErrorNotice } from '../ErrorNotice'
import { Field } from '../settings/Field'

export function SignerVerdict({
  summary,
  onSigner,
}: {
  summary: ReviewSummary
  onSigner: (signer: ReviewSigner) => void
}): React.JSX.Element {
  const { t } = useTranslation('review')
  const id = useId()
  const { signer } = summary
  const [expected, setExpected] = useState(signer.expected ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)

  const compare = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('review:checkSigner', { expected })
    setBusy(false)
    if (!r.ok) return setError(r.error)
    onSigner(r.data)
  }
  const trusted = signer.match === 'match'
  const fieldError = error?.fields?.['expected'] !== undefined ? t('signer.invalid') : undefined

  return (
    <div
      className={trusted ? 'alert alert-ok' : 'alert alert-warn'}
      data-testid={trusted ? 'review-verified' : 'review-unknown-signer'}
      data-signer={signer.match}
    >
      <p className="alert-title">
        <span aria-hidden="true">{trusted ? '✓ ' : '⚠ '}</span>
        {trusted ? t('verified.title') : t('signer.unknownTitle')}
      </p>
      {!trusted && <p>{signer.match === 'mismatch' ? t('signer.mismatch') : t('signer.none')}</p>}
      <p>
        {t('verified.fingerprint')}:{' '}
        <code className="mono" data-testid="signer-fingerprint">
          {summary.signerFingerprint}
        </code>{' '}
        <CopyButton text={summary.signerFingerprint} />
      </p>
      {trusted && signer.source === 'this_computer' && (
        <p data-testid="signer-this-computer">{t('signer.thisComputer')}</p>
      )}
      <form
        className="signer-check"
        onSubmit={(e) => {
          e.preventDefault()
          void compare()
        }}
      >
        <Field id={`${id}-expected`} label={t('signer.label')} hint={t('signer.hint')} error={fieldError}>
          {(aria) => (
            <input
              type="text"
              className="mono"
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              placeholder="ab12 cd34 ef56 7890 ab12 cd34 ef56 7890"
              {...aria}
              value={expected}
              onChange={(e) => setExpected(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="btn" disabled={busy}>
            {t('signer.compare')}
          </button>
        </div>
      </form>
      {error && fieldError === undefined && <ErrorNotice error={error} />}
    </div>
  )
}
