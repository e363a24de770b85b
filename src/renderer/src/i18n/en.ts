import type { ptBR } from './pt-BR'

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> }

export const en: Shape<typeof ptBR> = {
  app: {
    title: 'Tesouraria DePix',
    loading: 'Loading…',
    sandboxBanner: 'Test environment (Sandbox): no real money moves.',
  },
  nav: {
    label: 'Main navigation',
    newWithdrawal: 'New withdrawal',
    withdrawals: 'Withdrawals',
    records: 'Records',
    settings: 'Settings',
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
  placeholder: 'This page is not built yet.',
  language: { label: 'Language', 'pt-BR': 'Português (Brasil)', en: 'English' },
}
