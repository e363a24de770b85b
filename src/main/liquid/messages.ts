import { LIQUID_NETWORK_LABEL, type LiquidNetwork } from './networks'

export type LiquidAddressFailure = 'empty' | 'wrong_network' | 'malformed' | 'bad_checksum' | 'unsupported'

export type LiquidMessageLocale = 'pt-BR' | 'en'

// `{expected}` and `{actual}` are network labels; only wrong_network uses them.
export const liquidMessages: Readonly<
  Record<LiquidAddressFailure, Readonly<Record<LiquidMessageLocale, string>>>
> = {
  empty: {
    'pt-BR': 'Informe um endereço Liquid.',
    en: 'Enter a Liquid address.',
  },
  wrong_network: {
    'pt-BR': 'Este endereço é da rede {actual}, mas a rede em uso é {expected}. Não envie para ele.',
    en: 'This address is for {actual}, but this app is using {expected}. Do not send to it.',
  },
  malformed: {
    'pt-BR':
      'Este não é um endereço Liquid válido. Verifique se ele foi copiado por inteiro, sem espaços no meio.',
    en: 'This is not a valid Liquid address. Check that it was copied whole, with no spaces inside.',
  },
  bad_checksum: {
    'pt-BR':
      'O código de verificação do endereço não confere: há um erro de digitação ou ele foi alterado. Copie-o de novo da origem.',
    en: 'The address checksum does not match: it has a typo or was altered. Copy it again from the source.',
  },
  unsupported: {
    'pt-BR':
      'Este endereço não pode receber DePix aqui: não é um endereço Liquid (por exemplo, Bitcoin, Arkade ou Spark) ou usa um tipo de script não suportado.',
    en: 'This address cannot receive DePix here: it is not a Liquid address (for example Bitcoin, Arkade or Spark) or it uses an unsupported script type.',
  },
}

export function formatLiquidMessage(
  reason: LiquidAddressFailure,
  locale: LiquidMessageLocale,
  networks?: { expected: LiquidNetwork; actual: LiquidNetwork },
): string {
  const template = liquidMessages[reason][locale]
  if (!networks) return template
  return template
    .replace('{expected}', LIQUID_NETWORK_LABEL[networks.expected])
    .replace('{actual}', LIQUID_NETWORK_LABEL[networks.actual])
}
