import { useTranslation } from 'react-i18next'

/** A payee field path in words: "pixKeys.1.key" → "Chave Pix 2", "taxNumber" → "CPF/CNPJ". */
export function fieldLabel(t: (key: string, o?: Record<string, unknown>) => string, field: string): string {
  const key = /^pixKeys\.(\d+)(\.key)?$/.exec(field)
  if (key) return t('import.fields.key', { n: Number(key[1]) + 1 })
  const known = ['name', 'taxNumber', 'pixKeys', 'euid', 'notes'] as const
  const f = known.find((k) => k === field)
  return f ? t(`import.fields.${f}`) : t('import.fields.row')
}

export function ImportFieldLabel({ field }: { field: string }): React.JSX.Element {
  const { t } = useTranslation('payees')
  return <>{fieldLabel(t, field)}</>
}
