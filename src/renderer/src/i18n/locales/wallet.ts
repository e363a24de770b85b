/**
 * Caixa (issue #27): the treasury wallet's balance and movements, seen on the chain by a watch-only wallet.
 * Vocabulary: docs/GLOSSARY.md (caixa, carteira da tesouraria, movimento, taxa de rede).
 */
export const wallet = {
  'pt-BR': {
    title: 'Caixa',
    intro:
      'O DePix e o L-BTC da carteira da tesouraria, vistos na rede Liquid por uma carteira só de observação: o app nunca guarda chaves para gastar.',
    depix: 'Saldo em DePix',
    lbtc: 'L-BTC para taxas de rede',
    confirmed: 'Confirmado',
    pending: 'A confirmar',
    lastScan: 'Última leitura da rede: {{when}}',
    neverScanned: 'A rede ainda não foi lida.',
    stale:
      'Não foi possível ler a rede agora ({{reason}}). O saldo mostrado é o último conhecido, de {{when}}.',
    staleNever: 'Não foi possível ler a rede ({{reason}}). Nenhum saldo conhecido ainda.',
    address: {
      use: 'Usar endereço da carteira da tesouraria',
      treasury: 'Endereço da carteira da tesouraria.',
      external: 'Endereço externo: não é da carteira da tesouraria.',
      noWallet: 'Este perfil não tem carteira da tesouraria configurada (Caixa).',
    },
    reasons: {
      unreachable: 'servidor fora do ar ou sem conexão',
      timeout: 'o servidor demorou demais',
      too_large: 'resposta grande demais',
      budget: 'limite de consultas desta leitura atingido',
      foreign_url: 'endereço de servidor recusado',
      bad_response: 'resposta inválida do servidor',
    },
    refresh: 'Atualizar agora',
    refreshing: 'Lendo a rede…',
    movements: 'Movimentos',
    noMovements: 'Nenhum movimento ainda.',
    colWhen: 'Quando',
    colDepix: 'DePix',
    colLbtc: 'L-BTC',
    colTx: 'Transação',
    colMeaning: 'O que foi',
    meaning: {
      payment: 'Pagamento (depósito enviado)',
      topup: 'Compra de DePix recebida',
      refund: 'Devolução recebida',
      other: 'Sem correspondência no livro-caixa',
    },
    unconfirmed: 'a confirmar',
    notConfigured:
      'Nenhuma carteira da tesouraria configurada neste perfil. Cole abaixo o descritor de observação (começa com "ct(") exportado da carteira.',
    descriptorLabel: 'Descritor da carteira (só observação)',
    descriptorHint:
      'Blockstream App, Jade, SideSwap ou Elements. Ele revela todo o histórico da carteira: é guardado como segredo neste computador.',
    save: 'Guardar descritor',
    forget: 'Esquecer esta carteira',
    multisig: 'Carteira multiassinatura',
    card: 'Caixa',
    cardOpen: 'Abrir o Caixa',
    fundOk: '{{count}} pagamento(s) aguardando depósito, {{total}} no total: o saldo confirmado cobre todos.',
    fundShort:
      '{{count}} pagamento(s) aguardando depósito, {{total}} no total: falta {{missing}} no saldo confirmado.',
    lbtcLow:
      'Pouco L-BTC para taxas de rede: menos do que as próximas {{fundings}} transações precisam ({{need}}). Envie L-BTC para a carteira da tesouraria.',
  },
  en: {
    title: 'Treasury',
    intro:
      "The treasury wallet's DePix and L-BTC, seen on the Liquid network by a watch-only wallet: the app never keeps spending keys.",
    depix: 'DePix balance',
    lbtc: 'L-BTC for network fees',
    confirmed: 'Confirmed',
    pending: 'Pending',
    lastScan: 'Last network read: {{when}}',
    neverScanned: 'The network has not been read yet.',
    stale:
      'The network could not be read now ({{reason}}). The balance shown is the last known one, from {{when}}.',
    staleNever: 'The network could not be read ({{reason}}). No balance known yet.',
    address: {
      use: 'Use a treasury wallet address',
      treasury: 'Treasury wallet address.',
      external: 'External address: not the treasury wallet’s.',
      noWallet: 'This profile has no treasury wallet set up (Caixa).',
    },
    reasons: {
      unreachable: 'server down or no connection',
      timeout: 'the server took too long',
      too_large: 'answer too large',
      budget: 'request limit of this read reached',
      foreign_url: 'server address refused',
      bad_response: 'invalid answer from the server',
    },
    refresh: 'Refresh now',
    refreshing: 'Reading the network…',
    movements: 'Movements',
    noMovements: 'No movement yet.',
    colWhen: 'When',
    colDepix: 'DePix',
    colLbtc: 'L-BTC',
    colTx: 'Transaction',
    colMeaning: 'What it was',
    meaning: {
      payment: 'Payment (deposit sent)',
      topup: 'DePix top-up received',
      refund: 'Refund received',
      other: 'Not matched in the ledger',
    },
    unconfirmed: 'pending',
    notConfigured:
      'No treasury wallet is set up for this profile. Paste below the watch-only descriptor (it starts with "ct(") exported from the wallet.',
    descriptorLabel: 'Wallet descriptor (watch-only)',
    descriptorHint:
      'Blockstream App, Jade, SideSwap or Elements. It reveals the whole wallet history: it is kept as a secret on this computer.',
    save: 'Save descriptor',
    forget: 'Forget this wallet',
    multisig: 'Multisig wallet',
    card: 'Treasury',
    cardOpen: 'Open Treasury',
    fundOk: '{{count}} payment(s) waiting for deposit, {{total}} in all: the confirmed balance covers them.',
    fundShort:
      '{{count}} payment(s) waiting for deposit, {{total}} in all: {{missing}} short of the confirmed balance.',
    lbtcLow:
      'Little L-BTC for network fees: less than the next {{fundings}} transactions need ({{need}}). Send L-BTC to the treasury wallet.',
  },
} as const
