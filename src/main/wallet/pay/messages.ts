/** The operator's sentence for each refusal, pt-BR and en (docs/GLOSSARY.md), with the amount missing. */
import { formatAssetUnits } from '../../../shared/money'
import type { PayRefusal } from './errors'

type Msg = { 'pt-BR': string; en: string }

export function payRefusalMessage(e: PayRefusal): Msg {
  const d = e.details
  const missing = (ticker: string, locale: 'pt-BR' | 'en'): string =>
    d.missingUnits !== undefined ? formatAssetUnits(d.missingUnits, ticker, locale) : ''
  switch (e.code) {
    case 'not_payable':
      return {
        'pt-BR': 'Este pagamento não está aguardando depósito agora (ou já foi marcado como enviado).',
        en: 'This payment is not waiting for a deposit now (or was already marked as sent).',
      }
    case 'deadline_too_close':
      return {
        'pt-BR': 'O prazo deste pagamento está perto demais para assinar, transmitir e confirmar a tempo.',
        en: 'This payment’s deadline is too close to sign, broadcast and confirm in time.',
      }
    case 'changed_since_selected':
      return {
        'pt-BR':
          'O serviço informou outro endereço ou valor desde a seleção. Confira o pagamento e selecione de novo.',
        en: 'The service reported another address or amount since it was selected. Check the payment and select again.',
      }
    case 'already_in_funding':
      return {
        'pt-BR':
          'Este pagamento já está em outra transação da carteira. Cancele aquela antes, se ela não foi transmitida.',
        en: 'This payment is already in another wallet transaction. Cancel that one first, if it was not broadcast.',
      }
    case 'depix_short':
      return {
        'pt-BR': `Saldo de DePix insuficiente: faltam ${missing('DePix', 'pt-BR')}.`,
        en: `Not enough DePix: ${missing('DePix', 'en')} missing.`,
      }
    case 'lbtc_short':
      return {
        'pt-BR': `L-BTC insuficiente para a tarifa da rede: faltam cerca de ${missing('L-BTC', 'pt-BR')}.`,
        en: `Not enough L-BTC for the network fee: about ${missing('L-BTC', 'en')} missing.`,
      }
    case 'pset_mismatch':
      return {
        'pt-BR':
          'A transação carregada não é a que foi revisada (saída, valor ou entrada diferente). Nada foi transmitido.',
        en: 'The loaded transaction is not the one reviewed (a different output, amount or input). Nothing was broadcast.',
      }
    case 'not_a_pset':
      return {
        'pt-BR': 'O conteúdo carregado não é uma PSET válida.',
        en: 'What was loaded is not a valid PSET.',
      }
    case 'not_signed':
      return {
        'pt-BR': 'A PSET carregada não traz nenhuma assinatura nova.',
        en: 'The loaded PSET carries no new signature.',
      }
    case 'broadcast_failed':
      return {
        'pt-BR': 'A rede não aceitou a transação ou não respondeu. Nada foi marcado como enviado.',
        en: 'The network did not accept the transaction or did not answer. Nothing was marked as sent.',
      }
    case 'chain_unreachable':
      return {
        'pt-BR':
          'Não foi possível ler a rede Liquid agora; a transação não foi montada. Tente de novo em instantes.',
        en: 'The Liquid network could not be read now; the transaction was not built. Try again shortly.',
      }
    case 'illegal_state':
      return {
        'pt-BR': 'Esta ação não é possível na etapa atual da transação.',
        en: 'This action is not possible at the transaction’s current step.',
      }
    case 'sandbox_only':
      return {
        'pt-BR': 'A assinatura pelo app existe só no perfil Sandbox.',
        en: 'Signing inside the app exists only on the Sandbox profile.',
      }
  }
}
