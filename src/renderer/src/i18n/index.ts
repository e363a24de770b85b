import i18next, { type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { namespaces } from './locales'

export const LANGUAGES = ['pt-BR', 'en'] as const
export type Language = (typeof LANGUAGES)[number]

function resourcesFor(lang: Language): ResourceLanguage {
  return Object.fromEntries(Object.entries(namespaces).map(([ns, texts]) => [ns, texts[lang]]))
}

void i18next.use(initReactI18next).init({
  resources: { 'pt-BR': resourcesFor('pt-BR'), en: resourcesFor('en') },
  lng: 'pt-BR',
  fallbackLng: 'pt-BR',
  ns: Object.keys(namespaces),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
})

export function currentLanguage(): Language {
  return i18next.language === 'en' ? 'en' : 'pt-BR'
}

export default i18next
