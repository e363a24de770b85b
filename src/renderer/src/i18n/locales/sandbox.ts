/** Sandbox tools: fund, settle and maintenance against the embedded sandbox. */
export const sandbox = {
  'pt-BR': {
    title: 'Ferramentas do Sandbox',
    intro:
      'Simule o outro lado de um pagamento no Sandbox: o envio do DePix, o resultado do Pix e a manutenção do serviço. Nada disso existe num perfil real.',
    notSandbox: 'Estas ferramentas só existem no perfil Sandbox.',
    pick: {
      label: 'Pagamento (os {{count}} mais recentes)',
      none: 'Nenhum pagamento encontrado',
      onlyCreated: 'Somente pagamentos criados no serviço',
    },
    fund: {
      heading: 'Enviar o DePix (depósito)',
      exact: 'Depositar o valor exato',
      over_tolerance: 'Depositar mais de 5% acima',
      under_tolerance: 'Depositar mais de 5% abaixo',
    },
    settle: {
      heading: 'Resultado do Pix',
      sent: 'Pix pago',
      invalid_pix_key: 'Falhar: chave Pix inválida',
      key_tax_mismatch: 'Falhar: chave de outro titular',
      processor_failure: 'Falhar: erro do processador',
    },
    maintenance: {
      heading: 'Manutenção do serviço',
      unknown: 'Estado atual não informado: escolha abaixo.',
      isOn: 'Manutenção LIGADA: novos pagamentos são recusados com 503.',
      isOff: 'Manutenção desligada.',
      on: 'Ligar manutenção',
      off: 'Desligar manutenção',
    },
    ipcCodes: {
      not_created: 'Este pagamento não tem ID no serviço (não foi criado): não há o que depositar ou pagar.',
      no_amount: 'O pagamento ainda não tem valor de depósito.',
      wrong_state:
        'O pagamento não está no estado certo para esta ação (por exemplo, pagar antes do depósito).',
      bad_input: 'O Sandbox recusou os dados desta ação.',
    },
    result: {
      heading: 'Resultado',
      last: 'Última ação: {{action}}.',
      status: 'Situação',
      updatedAt: 'Atualizado em',
      amounts: 'Depósito → Pix',
      none: 'Escolha um pagamento.',
      openFunding: 'Abrir página de envio',
      openDetail: 'Abrir detalhes',
    },
  },
  en: {
    title: 'Sandbox tools',
    intro:
      'Play the other side of a withdrawal in the Sandbox: the DePix transfer, the Pix outcome and service maintenance. None of this exists on a real profile.',
    notSandbox: 'These tools exist only on the Sandbox profile.',
    pick: {
      label: 'Withdrawal (the {{count}} most recent)',
      none: 'No withdrawal found',
      onlyCreated: 'Only withdrawals created at the service',
    },
    fund: {
      heading: 'Send the DePix (deposit)',
      exact: 'Deposit the exact amount',
      over_tolerance: 'Deposit more than 5% over',
      under_tolerance: 'Deposit more than 5% under',
    },
    settle: {
      heading: 'Pix outcome',
      sent: 'Pix paid',
      invalid_pix_key: 'Fail: invalid Pix key',
      key_tax_mismatch: 'Fail: key of another owner',
      processor_failure: 'Fail: processor error',
    },
    maintenance: {
      heading: 'Service maintenance',
      unknown: 'Current state not reported: choose below.',
      isOn: 'Maintenance ON: new withdrawals are refused with 503.',
      isOff: 'Maintenance off.',
      on: 'Turn maintenance on',
      off: 'Turn maintenance off',
    },
    ipcCodes: {
      not_created: 'This withdrawal has no service id (it was not created): nothing to fund or pay.',
      no_amount: 'The withdrawal has no deposit amount yet.',
      wrong_state:
        'The withdrawal is not in the right state for this action (for example, paying before the deposit).',
      bad_input: 'The Sandbox refused the data of this action.',
    },
    result: {
      heading: 'Result',
      last: 'Last action: {{action}}.',
      status: 'Status',
      updatedAt: 'Updated',
      amounts: 'Deposit → payout',
      none: 'Pick a withdrawal.',
      openFunding: 'Open the funding page',
      openDetail: 'Open details',
    },
  },
} as const
