import { api } from '../lib/api-client';
import { useQuery } from '@tanstack/react-query';

export interface PrivacyProcessor {
  id: 'safaricom' | 'africas-talking' | 'mail-provider';
  name: string;
  purpose: 'payments' | 'sms' | 'email';
  receives: string[];
}

/** What the privacy notice states, from the settings the server runs with (retention job, data export, outbox). */
export interface PrivacySettings {
  retentionDays: number;
  dataExportLinkHours: number;
  dataExportIntervalHours: number;
  deletionGraceDays: number;
  mailKeepDays: number;
  processors: PrivacyProcessor[];
}

/** GET /api/privacy (public) -> the privacy notice's numbers and processors. */
export async function getPrivacySettings(signal?: AbortSignal): Promise<PrivacySettings> {
  const { data } = await api.get<PrivacySettings>('/privacy', { signal });
  return data;
}

/**
 * GET /api/privacy, shared by every page that states one of its numbers (the privacy notice, the account
 * deletion's grace period, ACCOUNT_DELETION_GRACE_DAYS): they change only with the server's settings, so fetched
 * once per visit.
 */
export function usePrivacySettings() {
  return useQuery({ queryKey: ['privacy'], queryFn: ({ signal }) => getPrivacySettings(signal), staleTime: Infinity });
}
