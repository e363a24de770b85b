/**
 * End-user sentences for ApiError, pt-BR (default) and en. Chosen from kind and from the codes the service
 * sends (never from its free text, which is only quoted as a detail). Unknown codes are shown raw next to a
 * generic sentence, as the API contract asks (§7.3, §7.4: an unknown code is a plain refusal).
 */
import type { ApiErrorCode, ApiErrorKind } from './error-kinds'

export type Locale = 'pt-BR' | 'en'

type Text = Readonly<Record<Locale, string>>

/** The fields of ApiError this module reads; a structural type avoids a runtime cycle with errors.ts. */
export interface MessageSource {
  kind: ApiErrorKind
  status: number | null
  requestId: string | null
  code?: ApiErrorCode
  messageCode?: string
  denialCode?: string
  denialMessage?: string
  authError?: string
  errorMessage?: string
  supportReference?: string
  retryAfterSeconds?: number
  createdId?: string
}

const KIND: Readonly<Record<ApiErrorKind, Text>> = {
  business: { 'pt-BR': 'O serviço recusou a operação.', en: 'The service refused the operation.' },
  compliance: {
    'pt-BR':
      'Operação bloqueada pela verificação de conformidade. A decisão é definitiva: não reenvie; fale com o suporte.',
    en: 'Blocked by compliance screening. The decision is final: do not resend; contact support.',
  },
  unauthorized: {
    'pt-BR': 'Acesso não autorizado: entre novamente com a credencial.',
    en: 'Not authorised: sign in again with the credential.',
  },
  forbidden: {
    'pt-BR': 'A credencial não tem permissão (escopo) para esta operação.',
    en: 'The credential lacks the permission (scope) for this operation.',
  },
  rate_limited: {
    'pt-BR': 'Limite de requisições atingido.',
    en: 'Request limit reached.',
  },
  maintenance: {
    'pt-BR': 'O serviço está em manutenção; nada foi criado.',
    en: 'The service is under maintenance; nothing was created.',
  },
  outcome_unknown: {
    'pt-BR':
      'Não foi possível confirmar o resultado: a operação pode ter sido executada. NÃO reenvie; consulte o status primeiro.',
    en: 'The outcome could not be confirmed: the operation may have been executed. Do NOT resend; check its status first.',
  },
  server: {
    'pt-BR': 'Erro no serviço. Tente novamente mais tarde.',
    en: 'The service failed. Try again later.',
  },
  bad_request: {
    'pt-BR': 'A requisição foi recusada por ser inválida; nada foi executado.',
    en: 'The request was refused as invalid; nothing was executed.',
  },
  route_not_found: {
    'pt-BR': 'Endereço da API não encontrado: verifique a URL base do perfil.',
    en: 'API address not found: check the profile base URL.',
  },
  network: {
    'pt-BR': 'Não foi possível falar com o serviço. Verifique a conexão.',
    en: 'Could not reach the service. Check the connection.',
  },
  invalid_response: {
    'pt-BR': 'O serviço respondeu em um formato inesperado.',
    en: 'The service answered in an unexpected format.',
  },
}

const CLIENT_CODES: Readonly<Partial<Record<ApiErrorCode, Text>>> = {
  not_signed_in: {
    'pt-BR': 'Você não está conectado: entre primeiro.',
    en: 'You are not signed in: sign in first.',
  },
  legacy_token_expired: {
    'pt-BR': 'O token legado expirou e não pode ser renovado. Use credenciais de cliente. Nada foi enviado.',
    en: 'The legacy token has expired and cannot be renewed. Use client credentials. Nothing was sent.',
  },
  legacy_token_malformed: {
    'pt-BR': 'O token legado não é um JWT legível.',
    en: 'The legacy token is not a readable JWT.',
  },
  access_token_rejected: {
    'pt-BR': 'O token de acesso foi recusado antes da operação; nada foi criado. A sessão será renovada.',
    en: 'The access token was refused before the operation; nothing was created. The session will be renewed.',
  },
  auth_body_too_large: {
    'pt-BR': 'A credencial é grande demais para o limite de 4 KiB do serviço. Nada foi enviado.',
    en: 'The credential exceeds the service 4 KiB limit. Nothing was sent.',
  },
  invalid_request: {
    'pt-BR': 'Os dados da requisição são inválidos. Nada foi enviado.',
    en: 'The request data is invalid. Nothing was sent.',
  },
  invalid_base_url: {
    'pt-BR': 'URL base inválida: use https (http só em endereço local).',
    en: 'Invalid base URL: use https (http only on a local address).',
  },
  client_closed: { 'pt-BR': 'O cliente da API foi encerrado.', en: 'The API client was closed.' },
  local_rate_limit_wait: {
    'pt-BR': 'Muitas requisições na fila para este limite; nada foi enviado.',
    en: 'Too many requests queued for this limit; nothing was sent.',
  },
  connect_failed: {
    'pt-BR': 'Não foi possível conectar ao serviço; nada foi enviado.',
    en: 'Could not connect to the service; nothing was sent.',
  },
  connect_timeout: {
    'pt-BR': 'Tempo esgotado ao conectar ao serviço; nada foi enviado.',
    en: 'Timed out connecting to the service; nothing was sent.',
  },
  timeout: { 'pt-BR': 'O serviço não respondeu a tempo.', en: 'The service did not answer in time.' },
  connection_lost: {
    'pt-BR': 'A conexão caiu antes da resposta.',
    en: 'The connection dropped before the answer.',
  },
  response_too_large: {
    'pt-BR': 'A resposta do serviço é grande demais.',
    en: 'The service answer is too large.',
  },
}

/** docs/API-CONTRACT.md#s7-4, append-only: a code missing here is shown raw. */
const MESSAGE_CODES: Readonly<Record<string, Text>> = {
  DEPOSIT_ADDRESS_NETWORK_UNKNOWN: {
    'pt-BR': 'O endereço de recebimento não é Liquid, Arkade nem Spark.',
    en: 'The payout address is not a Liquid, Arkade or Spark address.',
  },
  INVALID_DEPOSIT_ADDRESS: {
    'pt-BR': 'A carteira da rede recusou o endereço de recebimento.',
    en: 'The network wallet refused the payout address.',
  },
  INVALID_SPLIT_ADDRESS: {
    'pt-BR': 'A carteira da rede recusou o endereço de divisão (split).',
    en: 'The network wallet refused the split address.',
  },
  SPLIT_ADDRESS_NETWORK_MISMATCH: {
    'pt-BR': 'O endereço de divisão está em outra rede que o de recebimento.',
    en: 'The split address is on a different network from the payout address.',
  },
  NETWORK_WALLET_UNAVAILABLE: {
    'pt-BR': 'A carteira desta rede está indisponível agora; tente mais tarde.',
    en: 'The wallet of this network is unavailable now; try later.',
  },
  SPLIT_ADDRESS_REQUIRED: {
    'pt-BR': 'A tarifa de divisão exige um endereço de divisão.',
    en: 'A split fee requires a split address.',
  },
  SPLIT_FEE_REQUIRED: {
    'pt-BR': 'O endereço de divisão exige uma tarifa de divisão.',
    en: 'A split address requires a split fee.',
  },
  SPLIT_ADDRESS_CONFLICT: {
    'pt-BR': 'O endereço de divisão é igual ao de recebimento.',
    en: 'The split address equals the payout address.',
  },
  SPLIT_PORTION_TOO_LARGE: {
    'pt-BR': 'A divisão não cabe após a tarifa: aumente o valor ou reduza a porcentagem.',
    en: 'The split does not fit after the fee: raise the amount or lower the percentage.',
  },
  PERMISSION_NOT_ENABLED: {
    'pt-BR': 'A conta não tem permissão para o que foi pedido.',
    en: 'The account permissions do not cover this request.',
  },
  MISSING_PARAMETER: { 'pt-BR': 'Falta um parâmetro obrigatório.', en: 'A required parameter is missing.' },
  INVALID_PARAMETER: { 'pt-BR': 'Um parâmetro tem valor inválido.', en: 'A parameter has an invalid value.' },
  CONFLICTING_PARAMETERS: {
    'pt-BR': 'Parâmetros em conflito (CPF/CNPJ e EUID de pessoas diferentes, ou dois valores informados).',
    en: 'Conflicting parameters (tax number and EUID of different people, or both amounts sent).',
  },
  IDENTIFICATION_REQUIRED: {
    'pt-BR': 'O pagador precisa ser identificado (CPF/CNPJ ou EUID).',
    en: 'The payer must be identified (tax number or EUID).',
  },
  NO_BANKING_NODE_AVAILABLE: {
    'pt-BR': 'Nenhum nó bancário disponível pode receber este depósito agora.',
    en: 'No banking node available can take this deposit now.',
  },
  END_USER_NOT_FOUND: { 'pt-BR': 'Usuário final (EUID) não encontrado.', en: 'End user (EUID) not found.' },
  DEPOSIT_NOT_FOUND: {
    'pt-BR': 'Depósito não encontrado nesta conta.',
    en: 'Deposit not found on this account.',
  },
  WITHDRAW_NOT_FOUND: {
    'pt-BR': 'Pagamento não encontrado nesta conta.',
    en: 'Withdrawal not found on this account.',
  },
  DEPOSIT_DAILY_LIMIT_REACHED: {
    'pt-BR': 'Limite diário do pagador atingido.',
    en: 'The payer daily limit has been reached.',
  },
  END_USER_DEPOSIT_DAILY_LIMIT_REACHED: {
    'pt-BR': 'Limite diário do usuário final atingido.',
    en: 'The end user daily allowance has been reached.',
  },
  MERCHANT_TIER_PER_TX_CAP_EXCEEDED: {
    'pt-BR': 'Valor acima do teto por depósito do lojista ou da conta.',
    en: 'Amount above the per-deposit ceiling of the merchant or account.',
  },
  MERCHANT_TIER_DAILY_CAP_REACHED: {
    'pt-BR': 'Valor acima do que resta do teto diário do lojista ou da conta.',
    en: 'Amount above what is left of the merchant or account daily ceiling.',
  },
  BLOCKED_USER: { 'pt-BR': 'Usuário final bloqueado.', en: 'End user blocked.' },
  BLOCKED_MERCHANT: { 'pt-BR': 'Lojista bloqueado.', en: 'Merchant blocked.' },
  INTERNAL_ERROR: {
    'pt-BR': 'Falha interna do serviço; informe o ID da requisição ao suporte.',
    en: 'Internal failure of the service; quote the request ID to support.',
  },
}

/** docs/API-CONTRACT.md#s7-3. */
const DENIAL_CODES: Readonly<Record<string, Text>> = {
  BLOCKED_USER: MESSAGE_CODES.BLOCKED_USER!,
  BLOCKED_MERCHANT: MESSAGE_CODES.BLOCKED_MERCHANT!,
  COMPLIANCE_BLOCKED: KIND.compliance,
}

/** docs/API-CONTRACT.md#s5-5. */
const AUTH_ERRORS: Readonly<Record<string, Text>> = {
  invalid_request: {
    'pt-BR': 'Requisição de autenticação inválida.',
    en: 'Invalid authentication request.',
  },
  invalid_client: {
    'pt-BR': 'Credencial recusada: client_id ou client_secret errado, ou credencial revogada.',
    en: 'Credential refused: wrong client_id or client_secret, or the credential was revoked.',
  },
  invalid_grant: {
    'pt-BR': 'A sessão terminou; é preciso entrar novamente.',
    en: 'The session ended; sign in again.',
  },
  too_many_clients: {
    'pt-BR': 'A conta atingiu o limite de credenciais; revogue uma primeiro.',
    en: 'The account is at its credential limit; revoke one first.',
  },
  rate_limited: { 'pt-BR': 'Muitas tentativas de autenticação.', en: 'Too many authentication attempts.' },
  temporarily_unavailable: {
    'pt-BR': 'Autenticação temporariamente indisponível; tente em instantes.',
    en: 'Authentication temporarily unavailable; retry shortly.',
  },
  server_error: {
    'pt-BR': 'Erro no serviço de autenticação; informe o horário ao suporte.',
    en: 'Authentication service error; give support the time of the request.',
  },
}

const UNKNOWN_CODE: Text = {
  'pt-BR': 'O serviço recusou a operação (código {code}).',
  en: 'The service refused the operation (code {code}).',
}

/**
 * The sentence a screen shows: what happened and what to do, without the service's free text or the request id,
 * which the screen keeps under "Detalhes técnicos" (IpcError `serviceMessage`, `requestId`) — the service's text is
 * often English, and a pt-BR screen shows no English outside that disclosure.
 */
export function screenMessageFor(e: MessageSource, locale: Locale): string {
  return userMessageFor(
    { ...e, errorMessage: undefined, denialMessage: undefined, requestId: null } as MessageSource,
    locale,
  )
}

export function userMessageFor(e: MessageSource, locale: Locale): string {
  const parts = [mainSentence(e, locale)]
  if (e.retryAfterSeconds !== undefined && (e.kind === 'rate_limited' || e.kind === 'maintenance')) {
    parts.push(
      locale === 'en'
        ? `Try again in ${duration(e.retryAfterSeconds)}.`
        : `Tente novamente em ${duration(e.retryAfterSeconds)}.`,
    )
  }
  if (e.supportReference) {
    parts.push(
      locale === 'en'
        ? `Support reference: ${e.supportReference}.`
        : `Referência para o suporte: ${e.supportReference}.`,
    )
  }
  if (e.createdId) {
    parts.push(
      locale === 'en' ? `The service named id ${e.createdId}.` : `O serviço indicou o id ${e.createdId}.`,
    )
  }
  if (e.errorMessage) {
    parts.push(
      locale === 'en' ? `Service message: “${e.errorMessage}”.` : `Mensagem do serviço: “${e.errorMessage}”.`,
    )
  }
  // Present only when it adds to errorMessage (docs/API-CONTRACT.md#s7-3), so it is always shown.
  if (e.denialMessage) parts.push(`“${e.denialMessage}”.`)
  if (e.requestId) {
    parts.push(locale === 'en' ? `Request ID: ${e.requestId}.` : `ID da requisição: ${e.requestId}.`)
  }
  return parts.join(' ')
}

/**
 * The reason of a refusal the ledger stored (`errorInfo` of journal/create.ts), in both languages, from its kind and
 * codes only: the service's free text, which may be English, stays under "Detalhes técnicos". A stored kind this
 * version does not know reads as a plain refusal (docs/API-CONTRACT.md#s7-3).
 */
export function storedRefusalText(info: {
  kind: string
  status: number | null
  messageCode: string | null
  denialCode: string | null
}): Text {
  const kind = (KIND as Record<string, Text | undefined>)[info.kind]
    ? (info.kind as ApiErrorKind)
    : 'business'
  const source: MessageSource = {
    kind,
    status: info.status,
    requestId: null,
    ...(info.messageCode ? { messageCode: info.messageCode } : {}),
    ...(info.denialCode ? { denialCode: info.denialCode } : {}),
  }
  return { 'pt-BR': mainSentence(source, 'pt-BR'), en: mainSentence(source, 'en') }
}

function mainSentence(e: MessageSource, locale: Locale): string {
  // These kinds say what the operator must do next; no code may soften them.
  if (e.kind === 'outcome_unknown' || e.kind === 'compliance' || e.kind === 'maintenance') {
    return KIND[e.kind][locale]
  }
  const client = e.code !== undefined ? CLIENT_CODES[e.code] : undefined
  if (client) return client[locale]
  const known =
    (e.denialCode !== undefined ? DENIAL_CODES[e.denialCode] : undefined) ??
    (e.messageCode !== undefined ? MESSAGE_CODES[e.messageCode] : undefined)
  if (known) return known[locale]
  const rawCode = e.denialCode ?? e.messageCode
  if (rawCode !== undefined) {
    if (e.kind === 'business') return UNKNOWN_CODE[locale].replace('{code}', rawCode)
    return `${KIND[e.kind][locale]} (${rawCode})`
  }
  if (e.authError !== undefined) {
    const known = AUTH_ERRORS[e.authError]
    return known ? known[locale] : `${KIND[e.kind][locale]} (${e.authError})`
  }
  return KIND[e.kind][locale]
}

function duration(seconds: number): string {
  return seconds < 60 ? `${Math.max(0, Math.ceil(seconds))} s` : `${Math.ceil(seconds / 60)} min`
}
