/*
 * The app's translations (docs/decisions/languages.md):
 *   const t = useT();  t('events.getTicket'), t('tickets.seatsLeft', { count: 3 })   in components
 *   t('tickets.paid')                                                                 outside React (current language)
 *   const { language, setLanguage } = useLanguage();
 * Texts live in src/locales/{en,sw}/<area>.json; a key is '<area>.<camelName>'.
 * Dates, times and amounts in the current language: lib/format (formatEventDate / formatEventTime for event
 * dates, stored as Kenyan wall-clock time; formatDateTime for real instants; formatShillings; perLocale for a
 * feature's own cached Intl formatter).
 */
export { LANGUAGES, isLanguage, type Language } from './language';
export { t, catalogsReady, getLanguage, changeLanguage, type TranslationValues } from './runtime';
export { translatedLabels } from './labels';
export { useT, useLanguage, lazyWithTexts, type PreloadableComponent, type Translate } from './react';
export { RichText } from './rich-text';
export { reconcileAccountLanguage, saveAccountLanguage } from './account-language';
