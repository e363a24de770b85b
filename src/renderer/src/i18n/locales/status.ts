/**
 * Withdrawal statuses in words: remote statuses we know (docs/API-CONTRACT.md#s3-2 and observed), our local states, and hints.
 * The badge words come from shared/status-words.ts, the table the exports use too (docs/GLOSSARY.md).
 */
import { LOCAL_STATE_WORDS, REMOTE_STATUS_WORDS, STATUS_PHRASES } from '../../../../shared/status-words'

export const status = {
  'pt-BR': {
    remote: REMOTE_STATUS_WORDS['pt-BR'],
    local: LOCAL_STATE_WORDS['pt-BR'],
    hint: {
      unsent: 'O pagamento existe e espera o envio de DePix para o endereço de depósito.',
      sending: 'O DePix chegou; o Pix está sendo pago.',
      sent: 'O Pix foi pago ao favorecido.',
      error: 'O Pix ao favorecido falhou. Sem endereço de devolução, o serviço aguarda contato.',
      refunded: 'O DePix foi devolvido ao endereço de devolução.',
      expired: 'O prazo para depositar acabou sem depósito válido.',
      cancelled: 'O pagamento foi cancelado.',
      submitting: 'O pedido está sendo enviado ao serviço agora.',
      created: 'O serviço criou o pagamento; a primeira situação ainda não foi consultada.',
      rejected: 'O serviço recusou o pedido. Nada foi criado.',
      outcome_unknown:
        'O pedido foi enviado, mas a resposta não chegou. Pode ter sido criado. Resolva na página de detalhes.',
      not_created: 'Declarado pelo operador como não criado.',
      unknown: 'Situação que este aplicativo não reconhece, mostrada exatamente como o serviço enviou.',
    },
    /** The local state on its own, beside a remote status (the detail page's "state of the request"). */
    state: {
      submitting: 'Enviando pedido',
      created: 'Criado no serviço',
      rejected: 'Recusado pelo serviço',
      outcome_unknown: 'Resultado desconhecido',
      not_created: 'Não criado',
    },
    /** An unrecognised status: the words, then the raw code in parentheses. */
    unknownStatus: STATUS_PHRASES['pt-BR'].status,
    unknownLabel: 'Situação não reconhecida',
    unknownTitle: 'Situação não reconhecida: código {{code}} do serviço',
    withRefund: STATUS_PHRASES['pt-BR'].withRefund,
  },
  en: {
    remote: REMOTE_STATUS_WORDS.en,
    local: LOCAL_STATE_WORDS.en,
    hint: {
      unsent: 'The withdrawal exists and waits for DePix to be sent to its deposit address.',
      sending: 'The DePix arrived; the Pix payout is being made.',
      sent: 'The Pix was paid to the payee.',
      error: 'The Pix payout failed. Without a refund address, the service waits to be contacted.',
      refunded: 'The DePix was returned to the refund address.',
      expired: 'The deposit window ended without a valid deposit.',
      cancelled: 'The withdrawal was cancelled.',
      submitting: 'The request is being sent to the service right now.',
      created: 'The service created the withdrawal; its first status has not been checked yet.',
      rejected: 'The service refused the request. Nothing was created.',
      outcome_unknown:
        'The request was sent but no answer arrived. It may have been created. Resolve it on the detail page.',
      not_created: 'Declared by the operator as never created.',
      unknown: 'A status this app does not recognise, shown exactly as the service sent it.',
    },
    state: {
      submitting: 'Submitting',
      created: 'Created at the service',
      rejected: 'Refused by the service',
      outcome_unknown: 'Outcome unknown',
      not_created: 'Not created',
    },
    unknownStatus: STATUS_PHRASES.en.status,
    unknownLabel: 'Unrecognised status',
    unknownTitle: 'Unrecognised status: the service’s code {{code}}',
    withRefund: STATUS_PHRASES.en.withRefund,
  },
} as const
