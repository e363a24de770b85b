export const ptBR = {
  app: {
    title: 'Tesouraria DePix',
    loading: 'Carregando…',
    sandboxBanner: 'Ambiente de testes (Sandbox): nenhum dinheiro real é movimentado.',
  },
  nav: {
    label: 'Navegação principal',
    newWithdrawal: 'Nova retirada',
    withdrawals: 'Retiradas',
    records: 'Registros',
    settings: 'Configurações',
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
  placeholder: 'Esta página ainda não foi construída.',
  language: { label: 'Idioma', 'pt-BR': 'Português (Brasil)', en: 'English' },
} as const
