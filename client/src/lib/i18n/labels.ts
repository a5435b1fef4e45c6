import { t } from './runtime';

/**
 * A record of labels read in the language of the moment: `labels.due` translates 'refunds.due' each
 * time it is read, so module-level tables (statuses, reasons) never freeze the language they were made in.
 */
export function translatedLabels<K extends string>(keys: Record<K, string>): Readonly<Record<K, string>> {
  const labels = {} as Record<K, string>;
  for (const [name, key] of Object.entries(keys) as Array<[K, string]>) {
    Object.defineProperty(labels, name, { enumerable: true, get: () => t(key) });
  }
  return labels;
}
