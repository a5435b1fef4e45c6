import type { PrivacySettings } from './retention.schemas.js';

const HOUR_MS = 60 * 60 * 1000;
/**
 * What the privacy notice (/privacy, GET /api/privacy) states, from the very settings the retention job, the data
 * export and the mail outbox run on: the page cannot promise one number while the server keeps another.
 */
export function privacySettingsOf(settings: { retentionDays: number; dataExportLinkMs: number; dataExportIntervalMs: number; mailKeepDays: number; deletionGraceDays: number }): PrivacySettings {
  return {
    retentionDays: settings.retentionDays,
    dataExportLinkHours: Math.round(settings.dataExportLinkMs / HOUR_MS),
    dataExportIntervalHours: Math.round(settings.dataExportIntervalMs / HOUR_MS),
    deletionGraceDays: settings.deletionGraceDays,
    mailKeepDays: settings.mailKeepDays,
    processors: [
      { id: 'safaricom', name: 'Safaricom (M-Pesa)', purpose: 'payments', receives: ['phone', 'amount'] },
      { id: 'africas-talking', name: "Africa's Talking", purpose: 'sms', receives: ['phone', 'sms-text'] },
      { id: 'mail-provider', name: 'Email delivery provider', purpose: 'email', receives: ['email', 'email-text'] },
    ],
  };
}
