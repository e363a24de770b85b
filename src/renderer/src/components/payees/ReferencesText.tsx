/** References as one line of labelled parts: "Nota fiscal (NF): 4471 · Centro de custo: ADM". */
import { useTranslation } from 'react-i18next'
import { REFERENCE_FIELDS, type PaymentReferences } from '../../../../shared/payment-references'

export function ReferencesText({
  references,
}: {
  references: PaymentReferences | undefined
}): React.JSX.Element {
  const { t } = useTranslation('payees')
  const parts = REFERENCE_FIELDS.flatMap((f) => {
    const v = references?.[f]?.trim()
    return v ? [[f, v] as const] : []
  })
  return (
    <>
      {parts.map(([f, v], i) => (
        <span key={f} data-reference={f}>
          {i > 0 && ' · '}
          {t(`references.${f}`)}: {v}
        </span>
      ))}
    </>
  )
}
