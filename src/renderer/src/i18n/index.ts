import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { en } from './en'
import { ptBR } from './pt-BR'

export const LANGUAGES = ['pt-BR', 'en'] as const
export type Language = (typeof LANGUAGES)[number]

void i18next.use(initReactI18next).init({
  resources: { 'pt-BR': { translation: ptBR }, en: { translation: en } },
  lng: 'pt-BR',
  fallbackLng: 'pt-BR',
  interpolation: { escapeValue: false },
  returnNull: false,
})

export default i18next
