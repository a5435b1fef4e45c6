/*
 * The catalogs' compiled messages and their renderer, shared with the API server's mail and SMS
 * (@tukio/shared/messages says how they are compiled and why not Lingui's own runtime).
 */
export { renderMessage, type CompiledMessage, type Messages, type TranslationValues } from '@tukio/shared/messages';
