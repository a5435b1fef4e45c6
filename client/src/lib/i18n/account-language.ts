/*
 * The signed-in account keeps the reader's language too (its mail and SMS are written in it, and the
 * app opens in it on another device): PUT /api/auth/user/:id/language.
 */
import { api } from '../api-client';
import { isLanguage, readStored, type Language } from './language';
import { changeLanguage, getLanguage } from './runtime';

export async function saveAccountLanguage(userId: string, language: Language): Promise<void> {
  await api.put(`/auth/user/${encodeURIComponent(userId)}/language`, { language });
}

/**
 * At sign-in: a device that chose its language keeps it (and tells the account); otherwise the app
 * takes the account's language, so a Kiswahili account opens in Kiswahili on a new phone.
 */
export function reconcileAccountLanguage(userId: string, accountLanguage: unknown): void {
  const chosen = readStored();
  if (chosen) {
    if (chosen !== accountLanguage) void saveAccountLanguage(userId, chosen).catch(() => undefined);
    return;
  }
  if (isLanguage(accountLanguage) && accountLanguage !== getLanguage()) void changeLanguage(accountLanguage, true);
}

