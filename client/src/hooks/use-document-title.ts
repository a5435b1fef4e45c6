import { useEffect } from 'react';
import { useT } from '../lib/i18n';

/** Sets `<title>` to "<title> | Tukio" (in the reader's language) while the calling page is mounted. */
export function useDocumentTitle(title: string | null | undefined): void {
  const t = useT();
  useEffect(() => {
    document.title = title ? t('common.pageTitle', { title }) : t('common.appTitle');
  }, [title, t]);
}
