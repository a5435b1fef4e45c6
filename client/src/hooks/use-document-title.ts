import { useEffect } from 'react';

const APP_NAME = 'Tukio';

/** Sets `<title>` to "<title> | Tukio" while the calling page is mounted. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : `${APP_NAME} | Events in Kenya`;
  }, [title]);
}
