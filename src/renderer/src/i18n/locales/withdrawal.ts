/** Nova retirada: the form, the review step and the result of a create. Field refusals use `withdrawalMessages`. */
export const withdrawal = {
  'pt-BR': {
    title: 'Novo pagamento',
    steps: {
      form: 'Passo 1 de 2: dados do pagamento.',
      review: 'Passo 2 de 2: revise e confirme.',
      unknown: 'Resultado desconhecido.',
      requested: 'Aprovação pedida: aguardando outro analista.',
    },
    form: { review: 'Revisar', quoting: 'Calculando…' },
    pixKey: {
      typeLabel: 'Tipo de chave',
      types: {
        auto: 'Automático (detectar)',
        cpf: 'CPF',
        cnpj: 'CNPJ',
        email: 'E-mail',
        phone: 'Celular',
        evp: 'Chave aleatória',
      },
      label: 'Chave Pix',
      hint: 'CPF, CNPJ, e-mail, celular com +55 ou chave aleatória.',
      detected: 'Tipo detectado: {{type}}.',
      matches: 'Chave de {{type}} válida.',
      canonical: 'Será enviada como',
    },
    beneficiary: {
      legend: 'Favorecido',
      hint: 'Informe o CPF/CNPJ do titular da chave, o EUID, ou ambos (se ambos, devem ser da mesma pessoa).',
      taxNumber: 'CPF ou CNPJ do favorecido',
      euid: 'EUID (identificador do usuário final)',
      valid: { cpf: 'CPF válido.', cnpj: 'CNPJ válido.' },
    },
    amount: {
      legend: 'Valor',
      kind: { payout: 'BRL a receber', deposit: 'DePix a enviar' },
      inputLabel: {
        payout: 'Valor que o favorecido recebe por Pix (R$)',
        deposit: 'Valor em DePix que você envia (1 DePix = R$ 1,00)',
      },
      meaning: {
        payout: 'A tarifa é somada: você enviará um pouco mais em DePix.',
        deposit: 'A tarifa é descontada: o favorecido receberá um pouco menos.',
      },
      hint: 'Digite só os números; os dois últimos são os centavos. Mínimo {{min}}, máximo {{max}} por pagamento.',
      pasteRefused:
        'Não foi possível ler “{{text}}” como valor sem ambiguidade. Digite o valor (só números) ou cole no formato 1.234,56.',
    },
    refund: {
      label: 'Endereço Liquid para devolução',
      hint: 'Obrigatório. Se o pagamento não puder ser concluído, o DePix volta para este endereço. Ele não pode ser informado depois.',
      checking: 'Verificando o endereço…',
      valid: 'Endereço válido na rede {{network}} ({{kind}}).',
      confidential: 'confidencial',
      unconfidential: 'não confidencial',
      reasons: {
        empty: 'Informe um endereço Liquid.',
        wrong_network:
          'Este endereço é da rede {{actual}}, mas a rede em uso é {{expected}}. Use um endereço da rede {{expected}}.',
        malformed:
          'Este não é um endereço Liquid válido. Verifique se ele foi copiado por inteiro, sem espaços no meio.',
        bad_checksum:
          'O código de verificação do endereço não confere: há um erro de digitação ou ele foi alterado. Copie-o de novo da origem.',
        unsupported:
          'Este endereço não pode receber DePix: não é um endereço Liquid (por exemplo, Bitcoin, Arkade ou Spark) ou usa um tipo de script não suportado.',
      },
    },
    networks: {
      liquid: 'Liquid',
      testnet: 'Liquid Testnet',
      regtest: 'Liquid Regtest',
      unknown: 'desconhecida',
    },
    deskConfirm: {
      title: 'Este pagamento de produção passa do limite de confirmação deste computador ({{limit}}).',
      label: 'Digite o valor informado (R$) para confirmar',
      mismatch: 'O valor digitado não é o valor informado no formulário.',
    },
    review: {
      heading: 'Revise antes de criar',
      intro: 'Confira tudo. Nada foi enviado ainda: o pagamento só é criado quando você confirmar.',
      pixKey: 'Chave Pix',
      taxNumber: 'CPF/CNPJ',
      euid: 'EUID',
      given: 'Valor informado',
      deposit: 'DePix a enviar (previsto)',
      fee: 'Tarifa prevista',
      feeRule: 'o maior entre a tarifa do parceiro ({{rate}}) e {{floor}}',
      payout: 'Pix previsto ao favorecido',
      refundAddress: 'Devolução para',
      recalcNote:
        'Se chegar um valor de DePix diferente do previsto (até 5% para mais ou para menos), o pagamento é recalculado pelo valor recebido.',
      jsonHeading: 'Pedido exato que será enviado ao serviço (para o suporte)',
      duplicates: {
        title: 'Atenção: pagamentos parecidos (mesma chave e valor) nas últimas 24 horas: {{count}}.',
        confirm: 'Confirmo que não é duplicada',
      },
      back: 'Voltar e editar',
      create: 'Criar pagamento',
      creating: 'Criando…',
    },
    ipcCodes: {
      invalid_draft: 'Alguns campos precisam de correção. Nada foi enviado.',
      illegal_state: 'O pagamento não está num estado que permita esta operação.',
      other_profile: 'Este pagamento pertence a outro perfil.',
      ledger_write_failed:
        'O serviço respondeu, mas o registro local não pôde ser gravado. Abra a lista de pagamentos e confira antes de tentar de novo.',
      duplicate_since_review:
        'Um pagamento parecido (mesma chave e valor) apareceu depois desta revisão, talvez ainda sendo criado. Nada foi enviado: confira a lista atualizada abaixo.',
      intent_invalid:
        'Esta revisão já foi usada ou não vale mais (o perfil foi trocado ou o aplicativo reiniciado). Nada foi enviado: confira a revisão atualizada abaixo.',
      intent_expired:
        'Esta revisão expirou. Nada foi enviado: confira a revisão atualizada abaixo antes de criar.',
      intent_mismatch:
        'O pagamento mudou desde a revisão. Nada foi enviado: confira a revisão atualizada abaixo.',
    },
    unknown: {
      title: 'Não sabemos se o pagamento foi criado',
      explain:
        'A requisição foi enviada, mas nenhuma resposta definitiva chegou (tempo esgotado ou conexão perdida). O pagamento pode existir no serviço.',
      noResend:
        'O aplicativo não reenvia nada automaticamente, porque um reenvio pode pagar duas vezes. Consulte o suporte com o ID da requisição e resolva o registro na página de detalhes.',
      requestId: 'ID da requisição',
      openRecord: 'Abrir o registro',
      openList: 'Ver pagamentos',
      backToForm: 'Voltar ao formulário',
    },
  },
  en: {
    title: 'New withdrawal',
    steps: {
      form: 'Step 1 of 2: withdrawal details.',
      review: 'Step 2 of 2: review and confirm.',
      unknown: 'Outcome unknown.',
      requested: 'Approval requested: waiting for another analyst.',
    },
    form: { review: 'Review', quoting: 'Calculating…' },
    pixKey: {
      typeLabel: 'Key type',
      types: {
        auto: 'Automatic (detect)',
        cpf: 'CPF',
        cnpj: 'CNPJ',
        email: 'Email',
        phone: 'Mobile phone',
        evp: 'Random key',
      },
      label: 'Pix key',
      hint: 'CPF, CNPJ, email, mobile number with +55, or random key.',
      detected: 'Detected type: {{type}}.',
      matches: 'Valid {{type}} key.',
      canonical: 'Will be sent as',
    },
    beneficiary: {
      legend: 'Payee',
      hint: 'Enter the key owner’s CPF/CNPJ, the EUID, or both (if both, they must be the same person).',
      taxNumber: 'Payee CPF or CNPJ',
      euid: 'EUID (end-user identifier)',
      valid: { cpf: 'Valid CPF.', cnpj: 'Valid CNPJ.' },
    },
    amount: {
      legend: 'Amount',
      kind: { payout: 'BRL to receive', deposit: 'DePix to send' },
      inputLabel: {
        payout: 'Amount the payee receives by Pix (R$)',
        deposit: 'Amount of DePix you send (1 DePix = R$1.00)',
      },
      meaning: {
        payout: 'The fee is added: you will send a little more DePix.',
        deposit: 'The fee is deducted: the payee will receive a little less.',
      },
      hint: 'Type digits only; the last two are the cents. Minimum {{min}}, maximum {{max}} per withdrawal.',
      pasteRefused:
        'Could not read “{{text}}” as an unambiguous amount. Type the amount (digits only) or paste it as 1,234.56.',
    },
    refund: {
      label: 'Liquid refund address',
      hint: 'Required. If the withdrawal cannot be completed, the DePix comes back to this address. It cannot be added later.',
      checking: 'Checking the address…',
      valid: 'Valid address on {{network}} ({{kind}}).',
      confidential: 'confidential',
      unconfidential: 'unconfidential',
      reasons: {
        empty: 'Enter a Liquid address.',
        wrong_network:
          'This address is for {{actual}}, but this app is using {{expected}}. Use a {{expected}} address.',
        malformed:
          'This is not a valid Liquid address. Check that it was copied whole, with no spaces inside.',
        bad_checksum:
          'The address checksum does not match: it has a typo or was altered. Copy it again from the source.',
        unsupported:
          'This address cannot receive DePix: it is not a Liquid address (for example Bitcoin, Arkade or Spark) or it uses an unsupported script type.',
      },
    },
    networks: {
      liquid: 'Liquid',
      testnet: 'Liquid Testnet',
      regtest: 'Liquid Regtest',
      unknown: 'unknown',
    },
    deskConfirm: {
      title: 'This live withdrawal is above this computer’s confirmation limit ({{limit}}).',
      label: 'Type the amount you entered (R$) to confirm',
      mismatch: 'The amount typed is not the amount entered in the form.',
    },
    review: {
      heading: 'Review before creating',
      intro: 'Check everything. Nothing has been sent yet: the withdrawal is created only when you confirm.',
      pixKey: 'Pix key',
      taxNumber: 'CPF/CNPJ',
      euid: 'EUID',
      given: 'Amount given',
      deposit: 'DePix to send (expected)',
      fee: 'Expected fee',
      feeRule: 'the larger of the partner rate ({{rate}}) and {{floor}}',
      payout: 'Expected Pix payout',
      refundAddress: 'Refund to',
      recalcNote:
        'If a different amount of DePix arrives (up to 5% more or less), the payout is recalculated from what arrived.',
      jsonHeading: 'Exact request that will be sent (JSON)',
      duplicates: {
        title: 'Warning: similar withdrawals (same key and amount) in the last 24 hours: {{count}}.',
        confirm: 'I confirm this is not a duplicate',
      },
      back: 'Back and edit',
      create: 'Create withdrawal',
      creating: 'Creating…',
    },
    ipcCodes: {
      invalid_draft: 'Some fields need fixing. Nothing was sent.',
      illegal_state: 'The withdrawal is not in a state that allows this.',
      other_profile: 'This withdrawal belongs to another profile.',
      ledger_write_failed:
        'The service answered but the local record could not be written. Open the withdrawals list and check before trying again.',
      duplicate_since_review:
        'A similar withdrawal (same key and amount) appeared after this review, maybe still being created. Nothing was sent: check the updated list below.',
      intent_invalid:
        'This review was already used or is no longer valid (the profile changed or the app restarted). Nothing was sent: check the updated review below.',
      intent_expired:
        'This review expired. Nothing was sent: check the updated review below before creating.',
      intent_mismatch:
        'The withdrawal changed since the review. Nothing was sent: check the updated review below.',
    },
    unknown: {
      title: 'We do not know whether the withdrawal was created',
      explain:
        'The request was sent but no definitive answer arrived (timeout or lost connection). The withdrawal may exist at the service.',
      noResend:
        'The app never resends anything automatically, because a resend could pay twice. Ask support with the request ID and resolve the record on its detail page.',
      requestId: 'Request ID',
      openRecord: 'Open the record',
      openList: 'See withdrawals',
      backToForm: 'Back to the form',
    },
  },
} as const
