/** Settings page: profiles, vault, session, language, allowances, export signing key, ledger backups; the
 * ledger integrity banner. */
export const settings = {
  'pt-BR': {
    title: 'Configurações',
    actions: { cancel: 'Cancelar' },
    profiles: {
      title: 'Perfis de conexão',
      caption: 'Perfis de conexão cadastrados',
      active: 'em uso',
      secretSaved: 'Guardado',
      secretMissing: 'Ausente: informe as credenciais',
      select: 'Usar este perfil',
      selectNamed: 'Usar este perfil: {{name}}',
      edit: 'Editar',
      editNamed: 'Editar {{name}}',
      credentials: 'Credenciais',
      credentialsNamed: 'Credenciais de {{name}}',
      remove: 'Remover',
      removeNamed: 'Remover {{name}}',
      builtIn: 'Embutido: não pode ser alterado nem removido.',
      selected: 'Perfil em uso agora: {{name}}.',
      saved: 'Perfil {{name}} atualizado.',
      credentialsSaved: 'Credenciais de {{name}} guardadas.',
      removed: 'Perfil {{name}} removido, com o segredo guardado.',
      added: 'Perfil {{name}} adicionado. Para usá-lo, escolha “Usar este perfil”.',
    },
    profile: {
      name: 'Nome',
      kind: 'Tipo',
      baseUrl: 'Endereço da API',
      network: 'Rede Liquid',
      access: 'Acesso',
      secret: 'Segredo',
      actions: 'Ações',
      partnerRate: 'Tarifa do parceiro (pontos-base, opcional)',
      assetId: 'Id do ativo DePix (opcional)',
    },
    kind: { sandbox: 'Sandbox (testes)', live: 'Produção' },
    network: { liquid: 'Liquid', testnet: 'Liquid Testnet', regtest: 'Liquid Regtest' },
    vault: {
      persistent:
        'Os segredos ficam guardados com a criptografia do sistema e continuam disponíveis após reiniciar.',
      memoryTitle: 'Os segredos ficam só na memória nesta sessão.',
      memoryBody:
        'Client secrets e tokens digitados agora serão esquecidos ao fechar o aplicativo e precisarão ser informados de novo depois de reiniciar.',
      reasonLabel: 'Motivo',
      reason: {
        encryption_unavailable: 'a criptografia do sistema operacional não está disponível.',
        basic_text_backend:
          'o sistema só oferece armazenamento sem proteção real (basic_text); o aplicativo não grava segredos assim.',
        file_unreadable:
          'o arquivo de segredos existente não pôde ser lido; ele foi preservado e não será sobrescrito.',
        memoryOnly: 'este ambiente usa um cofre somente em memória.',
        other: 'situação não reconhecida ({{reason}}).',
      },
    },
    add: {
      open: 'Adicionar perfil de produção',
      title: 'Novo perfil de produção',
      intro:
        'Um perfil de produção movimenta dinheiro real. O segredo vai direto para o cofre e nunca é mostrado de novo.',
      baseUrlHint: 'Por exemplo https://api.exemplo.com.br, sem o /api final. Exige https://.',
      partnerRateHint: '100 pontos-base = 1%. Em branco: 100 (1%), até você saber a tarifa do seu contrato.',
      assetIdHint:
        'Só para Testnet/Regtest: 64 caracteres hexadecimais. Em branco: o DePix da rede principal.',
      submit: 'Adicionar perfil',
    },
    edit: {
      title: 'Editar perfil {{name}}',
      rateLimits: 'Limites por minuto',
      rateLimitsHint: 'Em branco: o limite padrão da API. Ajuste se o seu contrato tiver outros limites.',
      rateLimitLabel: '{{endpoint}} (padrão {{default}})',
      esploraUrl: 'Esplora da carteira da tesouraria',
      esploraHint:
        'Em branco: o Esplora público da Blockstream, que fica sabendo quais endereços da carteira este computador consulta (e o seu IP); para mais privacidade, informe um Esplora/electrs próprio.',
      esploraHintRegtest: 'Liquid Regtest não tem Esplora público: informe o seu para ver o saldo.',
      addressPolicy: 'Endereços da carteira para compras e devoluções',
      addressPolicyFresh: 'Um endereço novo a cada pagamento ou compra',
      addressPolicyFixed: 'Sempre o mesmo endereço neste perfil',
      submit: 'Salvar alterações',
    },
    credentials: {
      title: 'Credenciais de {{name}}',
      intro: 'As novas credenciais substituem as anteriores. O segredo nunca é mostrado de novo.',
      kind: 'Tipo de acesso',
      clientCredentials: 'Credenciais de cliente (client_id e client_secret)',
      legacyToken: 'Token legado (JWT de longa duração)',
      clientId: 'client_id',
      clientSecret: 'client_secret',
      secretHint: 'Guardado no cofre; nunca aparece na tela nem nos registros.',
      token: 'Token legado',
      tokenHint: 'Cole o token inteiro (com ou sem “Bearer”). Guardado no cofre; nunca aparece na tela.',
      submit: 'Guardar credenciais',
    },
    remove: {
      title: 'Remover o perfil {{name}}?',
      body: 'O perfil e o segredo guardado para ele serão apagados deste computador. Os pagamentos já registrados continuam no histórico.',
      confirm: 'Remover definitivamente',
    },
    session: {
      title: 'Sessão',
      signedOut: 'Sem sessão ativa neste perfil.',
      signIn: 'Entrar',
      renew: 'Entrar novamente',
      signOut: 'Sair',
      signedInAs: 'Conectado como',
      noSub: '(o token não informa o parceiro)',
      kind: 'Tipo de acesso',
      kinds: {
        client_credentials: 'Credenciais de cliente',
        legacy_token: 'Token legado',
      },
      scopes: 'Permissões (scopes)',
      noScopes: 'nenhuma informada',
      env: 'Ambiente',
      noEnv: 'não informado',
      accessExpires: 'Acesso válido até',
      tokenExpires: 'Token expira em',
      autoRenew: '(renovado automaticamente)',
      legacyExpired: 'O token legado expirou. Cole um novo token nas credenciais do perfil.',
      legacyToday:
        'O token legado expira em menos de um dia. Peça um novo e atualize as credenciais do perfil.',
      legacySoon_one:
        'O token legado expira em {{count}} dia. Peça um novo e atualize as credenciais do perfil.',
      legacySoon_other:
        'O token legado expira em {{count}} dias. Peça um novo e atualize as credenciais do perfil.',
      envWarning: {
        sandbox_token_on_live: {
          title: 'Atenção: credencial de testes em um perfil de produção.',
          body: 'O token recebido diz ser do ambiente de testes. Confira o endereço e as credenciais antes de criar qualquer pagamento.',
        },
        live_token_on_sandbox: {
          title: 'Atenção: credencial de produção no perfil Sandbox.',
          body: 'O token recebido diz ser do ambiente de produção. Não use credenciais reais no Sandbox: troque-as.',
        },
      },
    },
    language: {
      title: 'Idioma',
      label: 'Idioma da interface',
      hint: 'Guardado para as próximas vezes que o aplicativo abrir.',
    },
    allowances: {
      title: 'Limites de requisições',
      intro:
        'O aplicativo respeita os limites da API por conta própria, para nunca receber um “excesso de requisições”. Atualizado ao vivo.',
      none: 'Sem informação de limites ainda.',
      endpoint: 'Endpoint',
      limit: 'Limite por minuto',
      available: 'Disponíveis agora',
      next: 'Próxima liberação em',
      full: 'todas disponíveis',
    },
    backups: {
      title: 'Backups do livro-caixa',
      intro:
        'Uma cópia do livro-caixa é feita antes de cada atualização do formato, uma vez por dia e antes de cada restauração; as 7 mais recentes ficam na pasta "backups" ao lado do livro-caixa.',
      none: 'Nenhum backup ainda.',
      caption: 'Backups do livro-caixa, do mais recente ao mais antigo',
      when: 'Feito em',
      reason: 'Motivo',
      size: 'Tamanho',
      actions: 'Ações',
      reasons: {
        migration: 'antes de atualizar o formato',
        daily: 'diário',
        restore: 'antes de uma restauração',
        manual: 'manual',
      },
      restore: 'Restaurar…',
      confirmTitle: 'Confirmar restauração',
      confirm:
        'Substituir o livro-caixa atual pelo backup de {{when}}? O atual é guardado antes como backup; registros feitos depois desse backup deixam de aparecer.',
      confirmYes: 'Sim, restaurar',
    },
    integrity: {
      broken:
        'A trilha de auditoria do livro-caixa não confere: ele foi alterado fora do aplicativo. Exportações estão bloqueadas.',
      error: 'Não foi possível verificar a trilha de auditoria do livro-caixa.',
      detail: 'Detalhe',
      action: 'Restaure um backup em Configurações ou procure o responsável antes de continuar.',
      team: {
        broken:
          'A trilha de auditoria do livro-caixa da equipe não confere: o banco de dados da equipe foi alterado fora do aplicativo. Exportações estão bloqueadas.',
        error: 'Não foi possível verificar a trilha de auditoria do livro-caixa da equipe.',
        action:
          'Avise o responsável pelo banco de dados da equipe antes de qualquer novo pagamento; a correção é feita no servidor, não neste computador.',
      },
    },
    signingKey: {
      title: 'Chave de assinatura das exportações',
      intro:
        'Toda exportação é assinada por esta instalação. Quem revisar os arquivos deve conferir, por outro canal (telefone, papel), que a impressão digital é esta.',
      fingerprint: 'Impressão digital',
      copy: 'Copiar impressão digital',
      pem: 'Chave pública completa (PEM)',
    },
  },
  en: {
    title: 'Settings',
    actions: { cancel: 'Cancel' },
    profiles: {
      title: 'Connection profiles',
      caption: 'Saved connection profiles',
      active: 'in use',
      secretSaved: 'Saved',
      secretMissing: 'Missing: enter the credentials',
      select: 'Use this profile',
      selectNamed: 'Use this profile: {{name}}',
      edit: 'Edit',
      editNamed: 'Edit {{name}}',
      credentials: 'Credentials',
      credentialsNamed: 'Credentials of {{name}}',
      remove: 'Remove',
      removeNamed: 'Remove {{name}}',
      builtIn: 'Built in: cannot be changed or removed.',
      selected: 'Profile now in use: {{name}}.',
      saved: 'Profile {{name}} updated.',
      credentialsSaved: 'Credentials of {{name}} saved.',
      removed: 'Profile {{name}} removed, together with its saved secret.',
      added: 'Profile {{name}} added. To use it, choose “Use this profile”.',
    },
    profile: {
      name: 'Name',
      kind: 'Type',
      baseUrl: 'API address',
      network: 'Liquid network',
      access: 'Access',
      secret: 'Secret',
      actions: 'Actions',
      partnerRate: 'Partner rate (basis points, optional)',
      assetId: 'DePix asset id (optional)',
    },
    kind: { sandbox: 'Sandbox (testing)', live: 'Live' },
    network: { liquid: 'Liquid', testnet: 'Liquid Testnet', regtest: 'Liquid Regtest' },
    vault: {
      persistent:
        'Secrets are stored with the operating system’s encryption and remain available after a restart.',
      memoryTitle: 'Secrets are kept in memory only for this session.',
      memoryBody:
        'Client secrets and tokens entered now are forgotten when the app closes and must be entered again after restarting.',
      reasonLabel: 'Reason',
      reason: {
        encryption_unavailable: 'the operating system’s encryption is not available.',
        basic_text_backend:
          'the system only offers storage without real protection (basic_text); the app does not save secrets that way.',
        file_unreadable:
          'the existing secrets file could not be read; it was kept and will not be overwritten.',
        memoryOnly: 'this environment uses a memory-only vault.',
        other: 'unrecognised situation ({{reason}}).',
      },
    },
    add: {
      open: 'Add a live profile',
      title: 'New live profile',
      intro:
        'A live profile moves real money. The secret goes straight into the vault and is never shown again.',
      baseUrlHint: 'For example https://api.example.com, without the trailing /api. Requires https://.',
      partnerRateHint: '100 basis points = 1%. Blank: 100 (1%), until you know your contract’s rate.',
      assetIdHint: 'Testnet/Regtest only: 64 hexadecimal characters. Blank: the mainnet DePix asset.',
      submit: 'Add profile',
    },
    edit: {
      title: 'Edit profile {{name}}',
      rateLimits: 'Limits per minute',
      rateLimitsHint: 'Blank: the API’s default limit. Change it if your contract has other limits.',
      rateLimitLabel: '{{endpoint}} (default {{default}})',
      esploraUrl: 'Treasury wallet Esplora',
      esploraHint:
        'Blank: Blockstream’s public Esplora, which learns which wallet addresses this computer asks about (and its IP); for more privacy, enter your own Esplora/electrs.',
      esploraHintRegtest: 'Liquid Regtest has no public Esplora: enter yours to see the balance.',
      addressPolicy: 'Wallet addresses for top-ups and refunds',
      addressPolicyFresh: 'A new address for each payment or top-up',
      addressPolicyFixed: 'Always the same address on this profile',
      submit: 'Save changes',
    },
    credentials: {
      title: 'Credentials of {{name}}',
      intro: 'The new credentials replace the previous ones. The secret is never shown again.',
      kind: 'Access type',
      clientCredentials: 'Client credentials (client_id and client_secret)',
      legacyToken: 'Legacy token (long-lived JWT)',
      clientId: 'client_id',
      clientSecret: 'client_secret',
      secretHint: 'Kept in the vault; never shown on screen or in records.',
      token: 'Legacy token',
      tokenHint:
        'Paste the whole token (with or without “Bearer”). Kept in the vault; never shown on screen.',
      submit: 'Save credentials',
    },
    remove: {
      title: 'Remove the profile {{name}}?',
      body: 'The profile and its saved secret will be deleted from this computer. Withdrawals already recorded stay in the history.',
      confirm: 'Remove for good',
    },
    session: {
      title: 'Session',
      signedOut: 'No active session on this profile.',
      signIn: 'Sign in',
      renew: 'Sign in again',
      signOut: 'Sign out',
      signedInAs: 'Signed in as',
      noSub: '(the token does not name the partner)',
      kind: 'Access type',
      kinds: {
        client_credentials: 'Client credentials',
        legacy_token: 'Legacy token',
      },
      scopes: 'Permissions (scopes)',
      noScopes: 'none given',
      env: 'Environment',
      noEnv: 'not given',
      accessExpires: 'Access valid until',
      tokenExpires: 'Token expires at',
      autoRenew: '(renewed automatically)',
      legacyExpired: 'The legacy token has expired. Paste a new token in the profile’s credentials.',
      legacyToday:
        'The legacy token expires in less than a day. Ask for a new one and update the profile’s credentials.',
      legacySoon_one:
        'The legacy token expires in {{count}} day. Ask for a new one and update the profile’s credentials.',
      legacySoon_other:
        'The legacy token expires in {{count}} days. Ask for a new one and update the profile’s credentials.',
      envWarning: {
        sandbox_token_on_live: {
          title: 'Warning: test credential on a live profile.',
          body: 'The token received says it belongs to the test environment. Check the address and the credentials before creating any withdrawal.',
        },
        live_token_on_sandbox: {
          title: 'Warning: live credential on the Sandbox profile.',
          body: 'The token received says it belongs to the live environment. Do not use real credentials in the Sandbox: replace them.',
        },
      },
    },
    language: {
      title: 'Language',
      label: 'Interface language',
      hint: 'Saved for the next times the app opens.',
    },
    allowances: {
      title: 'Request limits',
      intro:
        'The app keeps within the API’s limits by itself, so it never gets a “too many requests” answer. Updated live.',
      none: 'No limit information yet.',
      endpoint: 'Endpoint',
      limit: 'Limit per minute',
      available: 'Available now',
      next: 'Next slot in',
      full: 'all available',
    },
    backups: {
      title: 'Ledger backups',
      intro:
        'A copy of the ledger is made before every format upgrade, once a day and before every restore; the newest 7 are kept in the "backups" folder beside the ledger.',
      none: 'No backups yet.',
      caption: 'Ledger backups, newest first',
      when: 'Made at',
      reason: 'Reason',
      size: 'Size',
      actions: 'Actions',
      reasons: {
        migration: 'before a format upgrade',
        daily: 'daily',
        restore: 'before a restore',
        manual: 'manual',
      },
      restore: 'Restore…',
      confirmTitle: 'Confirm restore',
      confirm:
        'Replace the current ledger with the backup from {{when}}? The current one is kept as a backup first; records made after that backup no longer show.',
      confirmYes: 'Yes, restore',
    },
    integrity: {
      broken:
        "The ledger's audit trail does not check out: it was changed outside the app. Exports are blocked.",
      error: "The ledger's audit trail could not be checked.",
      detail: 'Detail',
      action: 'Restore a backup in Settings or ask whoever is responsible before going on.',
      team: {
        broken:
          "The team ledger's audit trail does not check out: the team's database was changed outside the app. Exports are blocked.",
        error: "The team ledger's audit trail could not be checked.",
        action:
          'Tell whoever runs the team database before any further payment; it is put right on the server, not on this computer.',
      },
    },
    signingKey: {
      title: 'Export signing key',
      intro:
        'Every export is signed by this installation. Whoever reviews the files should confirm, through another channel (phone, paper), that the fingerprint is this one.',
      fingerprint: 'Fingerprint',
      copy: 'Copy fingerprint',
      pem: 'Full public key (PEM)',
    },
  },
} as const
