/** Issue #16: four-eyes approval of payments above the team's limit, and the desk's standing in the team. */
export const approvals = {
  'pt-BR': {
    title: 'Aprovações',
    intro:
      'Pagamentos acima do limite da equipe só são enviados depois da aprovação de outro analista. Quem pediu não pode aprovar nem recusar o próprio pedido.',
    empty: 'Nenhum pedido de aprovação na fila.',
    loading: 'Buscando os pedidos de aprovação…',
    count: '{{count}} pedido(s) precisam de você',
    fields: {
      amount: 'Valor',
      pixKey: 'Chave Pix',
      payee: 'CPF/CNPJ do favorecido',
      requester: 'Solicitante',
      requestedAt: 'Pedido em',
      note: 'Observação do solicitante',
      approver: 'Aprovador',
      rejecter: 'Recusado por',
      decisionNote: 'Observação do aprovador',
      reason: 'Motivo da recusa',
      refundAddress: 'Endereço de devolução',
      refundAddressHint:
        'Se o Pix não puder ser pago (chave encerrada, CPF/CNPJ divergente), todo o DePix depositado volta para este endereço. Confira se é da empresa.',
    },
    refundUnregistered:
      'Não é um endereço cadastrado da equipe: se o Pix falhar, o depósito volta para este endereço.',
    topUp: {
      kind: 'compra de DePix (Pix a pagar pela empresa)',
      depixAddress: 'Endereço de entrega do DePix',
      depixAddressHint:
        'Depois que o Pix for pago, o DePix comprado vai para este endereço. Confira se é da empresa.',
      unregistered: 'Não é um endereço cadastrado da equipe: o DePix comprado vai para este endereço.',
      approvedReady: 'Aprovada: quem pediu (ou outro analista da equipe) pode gerar o QR desta compra agora.',
      send: 'Gerar QR da compra aprovada',
      sending: 'Gerando o QR…',
      decide: {
        approveTitle: 'Aprovar esta compra de DePix?',
        rejectTitle: 'Recusar esta compra de DePix?',
        approveBody:
          'Depois da aprovação, o QR desta compra pode ser gerado exatamente como foi pedida, com o DePix entregue ao endereço acima.',
        rejectBody: 'A compra não será criada. O solicitante verá o motivo.',
        confirmApprove: 'Aprovar compra',
        confirmReject: 'Recusar compra',
      },
    },
    kind: {
      payout: 'a receber por Pix',
      deposit: 'em DePix a enviar',
    },
    state: {
      pending: 'Aguardando aprovação',
      approved: 'Aprovado',
      rejected: 'Recusado',
      sent: 'Enviado',
    },
    me: '{{name}} (você)',
    waitOther: 'Aguardando aprovação de outro analista',
    approvedReady: 'Aprovado: qualquer analista da equipe pode enviar este pagamento agora.',
    approve: 'Aprovar',
    reject: 'Recusar',
    send: 'Enviar pagamento aprovado',
    sending: 'Enviando pagamento…',
    decide: {
      approveTitle: 'Aprovar este pagamento?',
      rejectTitle: 'Recusar este pagamento?',
      approveBody:
        'Depois da aprovação, qualquer analista da equipe pode enviar este pagamento exatamente como foi pedido.',
      rejectBody: 'O pagamento não será enviado. O solicitante verá o motivo.',
      note: 'Observação (opcional)',
      reason: 'Motivo da recusa (obrigatório)',
      reasonRequired: 'Escreva o motivo da recusa.',
      confirmApprove: 'Aprovar pagamento',
      confirmReject: 'Recusar pagamento',
      cancel: 'Voltar',
      busy: 'Gravando a decisão…',
    },
    request: {
      intro:
        'Confira tudo. Nada foi enviado ainda: este pagamento passa antes pela aprovação de outro analista.',
      needed:
        'A equipe exige a aprovação de outro analista para pagamentos acima de {{limit}}. Este pagamento não será criado agora: ele vai para a fila de Aprovações.',
      neededNoLimit:
        'A equipe exige a aprovação de outro analista para este valor. Este pagamento não será criado agora: ele vai para a fila de Aprovações.',
      note: 'Observação para o aprovador (opcional)',
      button: 'Pedir aprovação',
      busy: 'Pedindo aprovação…',
    },
    requested: {
      title: 'Aprovação pedida',
      body: 'O pedido de {{amount}} para a chave Pix {{pixKey}} está na fila de Aprovações. Nada foi enviado ao serviço.',
      next: 'Próximo passo: outro analista da equipe (não {{requester}}) aprova ou recusa. Depois da aprovação, qualquer analista pode enviar o pagamento.',
      open: 'Ver Aprovações',
      another: 'Novo pagamento',
    },
    ipcCodes: {
      approval_self:
        'Quem pediu a aprovação não pode aprovar nem recusar o próprio pedido: outro analista precisa decidir.',
      approval_decided: 'Outro analista já decidiu este pedido. A fila foi atualizada.',
      approval_required:
        'Este pagamento precisa da aprovação de outro analista antes de ser enviado. Revise e peça a aprovação.',
      permission_denied:
        'O usuário deste computador no livro-caixa da equipe não tem permissão para esta ação. Fale com o responsável pelo banco.',
      unavailable:
        'O livro-caixa da equipe está fora de alcance agora. Nada foi alterado; tente de novo quando a conexão voltar.',
      unsupported:
        'Este perfil usa o livro-caixa deste computador: aprovações só existem no livro-caixa da equipe.',
      not_found: 'Este pedido de aprovação não existe mais.',
      note_required: 'Escreva o motivo da recusa.',
      approval_not_sendable:
        'Este pedido não pode ser enviado: ainda não foi aprovado, foi recusado ou o pagamento já foi enviado. A fila foi atualizada.',
      schema_too_new:
        'O livro-caixa da equipe é de uma versão mais nova que este aplicativo: atualize o aplicativo.',
      schema_too_old:
        'O livro-caixa da equipe ainda não foi preparado para esta versão: peça ao responsável pelo banco para atualizá-lo.',
    },
    toast: {
      to_decide: '{{requester}} pediu aprovação de um pagamento de {{amount}} para {{pixKey}}.',
      approved: '{{approver}} aprovou o pagamento de {{amount}} para {{pixKey}}: ele já pode ser enviado.',
      rejected: '{{approver}} recusou o pagamento de {{amount}} para {{pixKey}}.',
      open: 'Abrir Aprovações',
      dismiss: 'Fechar aviso',
    },
    team: {
      label: 'Livro-caixa da equipe',
      connected: 'conectado como {{identity}}',
      disconnected: 'desconectado',
      leader: 'este computador acompanha as situações dos pagamentos',
      clockAhead:
        'O relógio deste computador está {{amount}} adiantado em relação ao servidor da equipe: acerte a hora.',
      clockBehind:
        'O relógio deste computador está {{amount}} atrasado em relação ao servidor da equipe: acerte a hora.',
    },
    runs: {
      heading: 'Lotes de pagamentos',
      state: 'Lote aguardando aprovação',
      rows: 'Pagamentos',
      total: 'Total a receber por Pix',
      approve:
        'Abra o lote para conferir as linhas e aprovar (digitando o total a receber por Pix do seu controle) ou recusar com um motivo.',
      wait_mine: 'Aguardando aprovação de outro analista',
      wait_imported: 'Quem importou o lote não pode aprovar: outro analista precisa decidir.',
      open: 'Abrir lote',
    },
    badge: '{{count}} aguardando você',
  },
  en: {
    title: 'Approvals',
    intro:
      'Withdrawals above the team limit are only sent after another analyst approves them. Whoever requested one cannot approve or reject it.',
    empty: 'No approval requests in the queue.',
    loading: 'Loading the approval requests…',
    count: '{{count}} request(s) need you',
    fields: {
      amount: 'Amount',
      pixKey: 'Pix key',
      payee: 'Payee’s CPF/CNPJ',
      requester: 'Requested by',
      requestedAt: 'Requested',
      note: 'Requester’s note',
      approver: 'Approver',
      rejecter: 'Rejected by',
      decisionNote: 'Approver’s note',
      reason: 'Reason for rejection',
      refundAddress: 'Refund address',
      refundAddressHint:
        'If the Pix cannot be paid (closed key, CPF/CNPJ mismatch), the whole DePix deposit returns to this address. Check that it is the company’s.',
    },
    refundUnregistered:
      'Not one of the team’s registered addresses: if the Pix payout fails, the deposit goes back to this address.',
    topUp: {
      kind: 'DePix top-up (a Pix the company pays)',
      depixAddress: 'DePix delivery address',
      depixAddressHint:
        'Once the Pix is paid, the DePix bought goes to this address. Check that it is the company’s.',
      unregistered: 'Not one of the team’s registered addresses: the DePix bought goes to this address.',
      approvedReady:
        'Approved: the requester (or another analyst of the team) can issue this top-up’s QR now.',
      send: 'Issue the approved top-up’s QR',
      sending: 'Issuing the QR…',
      decide: {
        approveTitle: 'Approve this DePix top-up?',
        rejectTitle: 'Reject this DePix top-up?',
        approveBody:
          'Once approved, this top-up’s QR can be issued exactly as requested, with the DePix delivered to the address above.',
        rejectBody: 'The top-up will not be created. The requester will see the reason.',
        confirmApprove: 'Approve top-up',
        confirmReject: 'Reject top-up',
      },
    },
    kind: {
      payout: 'paid out by Pix',
      deposit: 'in DePix to send',
    },
    state: {
      pending: 'Awaiting approval',
      approved: 'Approved',
      rejected: 'Rejected',
      sent: 'Sent',
    },
    me: '{{name}} (you)',
    waitOther: 'Awaiting approval by another analyst',
    approvedReady: 'Approved: any analyst on the team may send this withdrawal now.',
    approve: 'Approve',
    reject: 'Reject',
    send: 'Send approved withdrawal',
    sending: 'Sending withdrawal…',
    decide: {
      approveTitle: 'Approve this withdrawal?',
      rejectTitle: 'Reject this withdrawal?',
      approveBody: 'Once approved, any analyst on the team may send this withdrawal exactly as requested.',
      rejectBody: 'The withdrawal will not be sent. The requester will see the reason.',
      note: 'Note (optional)',
      reason: 'Reason for rejection (required)',
      reasonRequired: 'Write the reason for rejecting.',
      confirmApprove: 'Approve withdrawal',
      confirmReject: 'Reject withdrawal',
      cancel: 'Back',
      busy: 'Recording the decision…',
    },
    request: {
      intro:
        'Check everything. Nothing has been sent yet: this withdrawal first needs another analyst’s approval.',
      needed:
        'The team requires another analyst’s approval for withdrawals above {{limit}}. This withdrawal is not created now: it goes to the Approvals queue.',
      neededNoLimit:
        'The team requires another analyst’s approval for this amount. This withdrawal is not created now: it goes to the Approvals queue.',
      note: 'Note for the approver (optional)',
      button: 'Request approval',
      busy: 'Requesting approval…',
    },
    requested: {
      title: 'Approval requested',
      body: 'The request for {{amount}} to Pix key {{pixKey}} is in the Approvals queue. Nothing was sent to the service.',
      next: 'Next: another analyst on the team (not {{requester}}) approves or rejects it. Once approved, any analyst may send the withdrawal.',
      open: 'View approvals',
      another: 'New withdrawal',
    },
    ipcCodes: {
      approval_self:
        'Whoever requested the approval cannot approve or reject it: another analyst must decide.',
      approval_decided: 'Another analyst already decided this request. The queue was refreshed.',
      approval_required:
        'This withdrawal needs another analyst’s approval before it is sent. Review it and request approval.',
      permission_denied: 'This computer’s role on the team ledger may not do this. Ask the database owner.',
      unavailable:
        'The team ledger cannot be reached right now. Nothing was changed; try again once the connection is back.',
      unsupported: 'This profile uses this computer’s ledger: approvals exist only on a team ledger.',
      not_found: 'This approval request no longer exists.',
      note_required: 'Write the reason for rejecting.',
      approval_not_sendable:
        'This request cannot be sent: it is not approved yet, it was rejected, or the withdrawal was already sent. The queue was refreshed.',
      schema_too_new: 'The team ledger is from a newer version than this app: update the app.',
      schema_too_old:
        'The team ledger is not yet prepared for this version: ask the database owner to upgrade it.',
    },
    toast: {
      to_decide: '{{requester}} requested approval of a withdrawal of {{amount}} to {{pixKey}}.',
      approved: '{{approver}} approved the withdrawal of {{amount}} to {{pixKey}}: it may be sent now.',
      rejected: '{{approver}} rejected the withdrawal of {{amount}} to {{pixKey}}.',
      open: 'Open approvals',
      dismiss: 'Dismiss notice',
    },
    team: {
      label: 'Team ledger',
      connected: 'connected as {{identity}}',
      disconnected: 'disconnected',
      leader: 'this computer tracks withdrawal statuses',
      clockAhead: "This computer's clock is {{amount}} ahead of the team server's: set the time.",
      clockBehind: "This computer's clock is {{amount}} behind the team server's: set the time.",
    },
    runs: {
      heading: 'Payment runs',
      state: 'Payment run awaiting approval',
      rows: 'Withdrawals',
      total: 'Total to arrive by Pix',
      approve:
        'Open the run to check its rows and approve it (typing the total to arrive by Pix from your records) or reject it with a reason.',
      wait_mine: 'Awaiting approval by another analyst',
      wait_imported: 'Whoever imported the run cannot approve it: another analyst must decide.',
      open: 'Open run',
    },
    badge: '{{count}} waiting for you',
  },
} as const
