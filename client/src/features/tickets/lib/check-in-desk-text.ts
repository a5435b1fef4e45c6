/*
 * The words for what the check-in desk's state machine (check-in-desk.ts) recorded: a scan's result
 * and the offline check, in the reader's language at the time they are shown.
 */
import { formatDateTime, formatSeriesDate } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { checkedInAtText, scanTime, voidText } from './gate';
import type { OfflineCheck, ScanOutcome } from './check-in-desk';

export type ResultTone = 'success' | 'error' | 'warning';

export interface ResultText {
  tone: ResultTone;
  title: string;
  detail?: string;
}

const welcome = (who: string | null) => (who ? t('tickets.welcome', { who }) : undefined);

export function offlineCheckText(check: OfflineCheck): string {
  if (check === 'invalid') return t('tickets.offlineInvalid');
  if (check === 'genuine') return t('tickets.offlineGenuine');
  if (check === 'other-event') return t('tickets.offlineOtherEvent');
  return t('tickets.offlineUnavailable');
}

export function scanOutcomeText(outcome: ScanOutcome): ResultText {
  switch (outcome.kind) {
    case 'checked-in':
      return { tone: 'success', title: t('tickets.resultCheckedIn'), detail: welcome(outcome.who) };
    case 'void':
      return { tone: 'error', title: t('tickets.resultVoid'), detail: outcome.message ?? t('tickets.noLongerValid') };
    case 'void-offline':
      return { tone: 'error', title: t('tickets.resultVoid'), detail: voidText(outcome.reason) };
    case 'already-used':
      return {
        tone: 'error',
        title: t('tickets.resultAlreadyUsed'),
        detail: outcome.when
          ? t('tickets.alreadyUsedAt', { when: formatDateTime(outcome.when), where: outcome.where ? `, ${outcome.where}` : '', who: outcome.who ? ` (${outcome.who})` : '' })
          : (outcome.message ?? t('tickets.alreadyUsed')),
      };
    case 'already-inside-offline':
      return { tone: 'error', title: t('tickets.alreadyCheckedIn'), detail: `${checkedInAtText(outcome.first)} (${outcome.username}).` };
    case 'wrong-date-offline':
      return { tone: 'error', title: t('tickets.resultWrongDate'), detail: outcome.date ? t('tickets.wrongDateFor', { date: formatSeriesDate(outcome.date) }) : t('tickets.wrongDateOther') };
    case 'date-required':
      return { tone: 'error', title: t('tickets.checkInChooseDate'), detail: t('tickets.dateRequiredDetail') };
    case 'already-scanned':
      return { tone: 'warning', title: t('tickets.resultAlreadyScanned'), detail: t('tickets.scannedWaiting', { when: scanTime(outcome.scannedAt) }) };
    case 'saved-offline':
      return {
        tone: 'warning',
        title: t('tickets.resultSavedOffline'),
        detail: outcome.holder ? t('tickets.savedOfflineHolder', { holder: outcome.holder }) : t('tickets.savedOfflineUnknown'),
      };
    case 'not-valid':
      return { tone: 'error', title: t('tickets.resultNotValid'), detail: outcome.message ?? t('tickets.codeNotValid') };
    case 'wrong-event':
      return { tone: 'error', title: t('tickets.resultWrongEvent'), detail: t('tickets.differentEvent') };
    case 'sync-refused':
      return { tone: 'error', title: t('tickets.syncRefused'), detail: outcome.message ?? t('tickets.serverRefusedScans') };
    case 'synced': {
      const scan = outcome.scan;
      if (scan.status === 'accepted') return { tone: 'success', title: t('tickets.synced', { what: t('tickets.resultCheckedIn') }), detail: welcome(outcome.who) };
      if (scan.status === 'duplicate') {
        return { tone: 'error', title: t('tickets.synced', { what: t('tickets.alreadyCheckedIn') }), detail: `${checkedInAtText(scan.first)}${outcome.who ? ` (${outcome.who})` : ''}.` };
      }
      if (scan.status === 'void') return { tone: 'error', title: t('tickets.synced', { what: t('tickets.resultVoid') }), detail: scan.message };
      return { tone: 'error', title: t('tickets.synced', { what: t('tickets.resultNotValid') }), detail: scan.message };
    }
  }
}
