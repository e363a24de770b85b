/** Shell, navigation and shared components. Each namespace file holds both languages; keys must match. */
export const common = {
  'pt-BR': {
    app: {
      title: 'Tesouraria DePix',
      loading: 'Carregando…',
      sandboxBanner: 'Ambiente de testes (Sandbox): nenhum dinheiro real é movimentado.',
      waiting: {
        switch_profile:
          'Aguardando o pagamento que está sendo criado antes de trocar de perfil: interromper agora deixaria incerto se ele foi criado.',
        quit: 'Aguardando o pagamento que está sendo criado antes de fechar: interromper agora deixaria incerto se ele foi criado.',
      },
    },
    nav: {
      label: 'Navegação principal',
      newWithdrawal: 'Novo pagamento',
      withdrawals: 'Pagamentos',
      payees: 'Favorecidos',
      runs: 'Lotes de pagamentos',
      records: 'Exportar registros',
      review: 'Revisão offline',
      settings: 'Configurações',
      sandbox: 'Ferramentas do Sandbox',
      buyDepix: 'Comprar DePix',
      deposits: 'Compras de DePix',
      approvals: 'Aprovações',
      caixa: 'Caixa',
    },
    about: {
      heading: 'Sobre este aplicativo',
      version: 'Versão',
      platform: 'Plataforma',
      profile: 'Perfil',
      sandbox: 'Sandbox',
      live: 'Produção',
      failed: 'Não foi possível ler as informações do aplicativo ({{code}}).',
    },
    language: { label: 'Idioma', 'pt-BR': 'Português (Brasil)', en: 'English' },
    actions: {
      copy: 'Copiar',
      copied: 'Copiado',
      copyFailed: 'Selecione e copie manualmente',
      close: 'Fechar',
    },
    time: { zone: 'horário de Brasília' },
    /** For date fields (the date picker shows and accepts this order in pt-BR). */
    date: { format: 'dd/mm/aaaa', hint: 'Dia, mês e ano: por exemplo 31/01/2026.' },
  },
  en: {
    app: {
      title: 'Tesouraria DePix',
      loading: 'Loading…',
      sandboxBanner: 'Test environment (Sandbox): no real money moves.',
      waiting: {
        switch_profile:
          'Waiting for the payment being created before switching profile: stopping now would leave unknown whether it was created.',
        quit: 'Waiting for the payment being created before closing: stopping now would leave unknown whether it was created.',
      },
    },
    nav: {
      label: 'Main navigation',
      newWithdrawal: 'New withdrawal',
      withdrawals: 'Withdrawals',
      payees: 'Payees',
      runs: 'Payment runs',
      records: 'Export records',
      review: 'Offline review',
      settings: 'Settings',
      sandbox: 'Sandbox tools',
      buyDepix: 'Buy DePix',
      deposits: 'DePix top-ups',
      approvals: 'Approvals',
      caixa: 'Treasury',
    },
    about: {
      heading: 'About this app',
      version: 'Version',
      platform: 'Platform',
      profile: 'Profile',
      sandbox: 'Sandbox',
      live: 'Live',
      failed: 'Could not read the app information ({{code}}).',
    },
    language: { label: 'Language', 'pt-BR': 'Português (Brasil)', en: 'English' },
    actions: { copy: 'Copy', copied: 'Copied', copyFailed: 'Select and copy it by hand', close: 'Close' },
    time: { zone: 'Brasília time' },
    date: { format: 'dd/mm/yyyy', hint: 'Day, month and year: for example 31/01/2026.' },
  },
} as const
